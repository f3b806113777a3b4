// The container proven without a container engine: the Dockerfile's runtime stage built into a folder (the built
// files, production dependencies only), run as the image runs it (`node server/dist/main.js`, NODE_ENV=production,
// an unprivileged user, everything read-only but DATA_DIR, PostgreSQL with compose.yaml's user and database), and a
// smoke test against it: /ready, an account from the admin CLI, a link session, a sandbox network switched on
// explicitly, a post with a HEIC photo (converted by the build's worker thread) scheduled and published, a restart,
// and the post still there. Run by scripts/container-smoke.sh inside scripts/with-postgres.sh, after `npm run build`.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, sep } from 'node:path';
import pg from 'pg';

const ROOT = new URL('..', import.meta.url).pathname;
const step = (text) => console.log(`container smoke: ${text}`);
const fail = (text) => {
  throw new Error(`container smoke: ${text}`);
};

/** The runtime stage's COPY lines, from the build tree into `app`. */
function buildLayout(app) {
  for (const path of ['package.json', 'package-lock.json', 'LICENSE', 'server/package.json', 'server/bin', 'server/dist', 'dist/cdn', 'hosted/dist']) {
    if (!existsSync(join(ROOT, path))) fail(`${path} is missing: run \`npm run build\` first`);
    cpSync(join(ROOT, path), join(app, path), { recursive: true, verbatimSymlinks: true });
  }
  // `npm prune --omit=dev`: the production dependency tree of this install, nothing else.
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
    .split('\n')
    .filter((path) => path.startsWith(join(ROOT, 'node_modules') + sep));
  const packages = [...new Set(listed)].sort().filter((path, i, all) => !all.slice(0, i).some((parent) => path.startsWith(parent + sep)));
  for (const path of packages) cpSync(path, join(app, relative(ROOT, path)), { recursive: true, verbatimSymlinks: true });
  for (const devOnly of ['tsx', 'typescript', 'vite', 'esbuild', '@playwright/test']) {
    if (existsSync(join(app, 'node_modules', devOnly))) fail(`${devOnly} is in the production install`);
  }
  return packages.length;
}

/** Read-only for everyone (the image's root-owned files), DATA_DIR the only writable folder. */
function lockDown(app, data, user) {
  const walk = (path) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    chmodSync(path, stat.isDirectory() ? 0o555 : stat.mode & 0o555);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(app);
  mkdirSync(data, { recursive: true });
  if (user) chownSync(data, user.uid, user.gid);
}

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The image's user: `nobody` when this runs as root, else this user (who cannot write the read-only tree). */
function unprivileged() {
  if (process.getuid() !== 0) return null;
  const id = (flag) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { name: 'nobody', uid: id('-u'), gid: id('-g') };
}

/** `node <args>` in the image's working directory, as its user. */
const asUser = (app, env, user) => ({ cwd: app, env, ...(user && { uid: user.uid, gid: user.gid }) });

async function startService(app, env, user, log) {
  const child = spawn(process.execPath, ['server/dist/main.js'], { ...asUser(app, env, user), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => log.push(String(chunk)));
  child.stderr.on('data', (chunk) => log.push(String(chunk)));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 300; i++) {
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('waiting'), 100))]);
    if (code !== 'waiting') fail(`the service exited (${code}):\n${log.join('')}`);
    const ready = await fetch(`${env.PUBLIC_URL}/ready`).catch(() => null);
    if (ready?.status === 200) return { child, exited };
  }
  fail(`/ready did not answer 200 in 30 s:\n${log.join('')}`);
}

async function stopService({ child, exited }) {
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) fail(`the service exited with ${code} on SIGTERM`);
}

async function api(env, apiKey, method, path, body) {
  const response = await fetch(`${env.PUBLIC_URL}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) fail(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

async function main() {
  const testDatabase = process.env.TEST_DATABASE_URL ?? fail('TEST_DATABASE_URL is not set: run inside scripts/with-postgres.sh');
  const dir = mkdtempSync('/tmp/slk-container-');
  chmodSync(dir, 0o755);
  const app = join(dir, 'app');
  const data = join(dir, 'data');
  let service = null;
  const log = [];
  try {
    step(`layout in ${app}: ${buildLayout(app)} production packages`);
    const user = unprivileged();
    lockDown(app, data, user);
    // compose.yaml's database: user and database social_link, with a password.
    const password = randomBytes(12).toString('hex');
    const admin = new pg.Client({ connectionString: testDatabase });
    await admin.connect();
    await admin.query(`CREATE ROLE social_link LOGIN PASSWORD '${password}'`);
    await admin.query('CREATE DATABASE social_link OWNER social_link');
    await admin.end();
    const port = await freePort();
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: data,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `postgres://social_link:${password}@${new URL(testDatabase).host}/social_link`,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      SANDBOX_NETWORKS: 'all',
      // The sandbox media host is on the service's loopback origin.
      OUTBOUND_ALLOW_PRIVATE_TARGETS: '1',
    };
    service = await startService(app, env, user, log);
    step(`ready on ${env.PUBLIC_URL} as ${user?.name ?? 'this user'}, NODE_ENV=production`);

    const cli = ['server/bin/social-link-admin.mjs', 'accounts', 'create', '--name', 'Smoke', '--plan', 'business'];
    const created = execFileSync(process.execPath, cli, { ...asUser(app, env, user), encoding: 'utf8' });
    const { apiKey } = JSON.parse(created);
    step('account created by the admin CLI');

    const session = await api(env, apiKey, 'POST', '/profiles/link-sessions', { origin: 'https://app.example.com' });
    if (!session.url?.startsWith(`${env.PUBLIC_URL}/link?`)) fail(`unexpected link session ${JSON.stringify(session)}`);
    const page = await fetch(session.url);
    if (page.status !== 200) fail(`the hosted page answered ${page.status}`);
    step('link session created, hosted page served');

    await api(env, apiKey, 'POST', '/sandbox/accounts', { platform: 'linkedin' });
    const due = new Date(Date.now() + 3000).toISOString().replace(/\.\d+Z$/, 'Z');
    const post = await api(env, apiKey, 'POST', '/post', { post: `Container smoke ${due}`, platforms: ['linkedin'], scheduleDate: due, mediaUrls: [`${env.PUBLIC_URL}/sandbox/media/photo.heic`] });
    step(`post ${post.id} scheduled for ${due} with a HEIC photo`);
    let state = null;
    for (let i = 0; i < 120 && state?.status !== 'success'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await api(env, apiKey, 'GET', `/post/${post.id}`);
      if (state.status === 'error') fail(`the post failed: ${JSON.stringify(state)}`);
    }
    if (state?.status !== 'success') fail(`the post was not published: ${JSON.stringify(state)}`);
    step('published');

    await stopService(service);
    service = null;
    service = await startService(app, env, user, log);
    const again = await api(env, apiKey, 'GET', `/post/${post.id}`);
    if (again.status !== 'success' || JSON.stringify(again.postIds) !== JSON.stringify(state.postIds)) fail(`after the restart: ${JSON.stringify(again)}`);
    const manifest = await fetch(`${env.PUBLIC_URL}/widget/manifest.json`);
    if (manifest.status !== 200) fail(`/widget/manifest.json answered ${manifest.status}`);
    step('restarted: the post is still there, published');
    if (log.some((chunk) => chunk.includes(env.TOKEN_ENCRYPTION_KEY) || chunk.includes(password) || chunk.includes(apiKey))) fail('a secret was logged');
    await stopService(service);
    service = null;
    step('passed');
  } finally {
    if (service) service.child.kill('SIGKILL');
    // The tree was made read-only: give write back to remove it.
    execFileSync('chmod', ['-R', 'u+w', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
