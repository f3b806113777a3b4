// Browser tests of the widget in the system Chromium (notes/toolchain.md §2).
// The test pages are served from http://127.0.0.1:<port>; the stand-in hosted page is loaded from
// http://localhost:<port>, a different origin on the same server, so the widget's origin checks are real.
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.config.mjs';


export default {
  files: 'test/widget/**/*.test.ts',
  hostname: '127.0.0.1',
  nodeResolve: true,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
    }),
  ],
  testFramework: { config: { timeout: 5000 } },
};
