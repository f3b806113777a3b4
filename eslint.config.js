// Lint gate: the security rules of the security checklist (B.9 postMessage targetOrigin, B.13 no raw markup
// or eval) plus a few correctness rules that are bugs whenever they fire. No style rules, no formatting.
// The parser is typescript-eslint's, without type information (no tsconfig project), so it stays fast.
import tseslint from 'typescript-eslint';
import sdl from '@microsoft/eslint-plugin-sdl';
import noUnsanitized from 'eslint-plugin-no-unsanitized';

const SOURCES = ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'];

export default [
  {
    // ESLint 9 does not read .gitignore: build output, reports and scratch data are listed here.
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      '.tmp/',
      'data/',
    ],
  },
  {
    files: SOURCES,
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    linterOptions: {
      // A disable comment that no longer suppresses anything fails the gate, so exceptions cannot linger.
      reportUnusedDisableDirectives: 'error',
    },
    plugins: {
      // `@microsoft/sdl` is the name the plugin's own configs and docs use
      // (the checklist's `@microsoft/eslint-plugin-sdl/no-postmessage-star-origin`).
      '@microsoft/sdl': sdl,
      'no-unsanitized': noUnsanitized,
      '@typescript-eslint': tseslint.plugin,
    },
    rules: {
      // B.9: never post to targetOrigin '*'.
      '@microsoft/sdl/no-postmessage-star-origin': 'error',
      // B.13: message data never reaches innerHTML/outerHTML, insertAdjacentHTML, document.write, eval.
      'no-unsanitized/property': 'error',
      'no-unsanitized/method': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      // Lit's unsafe* directives are innerHTML by another name, which no-unsanitized cannot see.
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['lit/directives/unsafe-*', 'lit-html/directives/unsafe-*'],
          message: 'Lit unsafe* directives render raw markup (checklist B.13); render through templates instead.',
        }],
      }],

      // Correctness only.
      'no-async-promise-executor': 'error',
      'no-compare-neg-zero': 'error',
      'no-cond-assign': 'error',
      'no-constant-binary-expression': 'error',
      'no-debugger': 'error',
      'no-dupe-else-if': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-empty-pattern': 'error',
      'no-fallthrough': 'error',
      'no-loss-of-precision': 'error',
      'no-self-assign': 'error',
      'no-self-compare': 'error',
      'no-sparse-arrays': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-optional-chaining': 'error',
      'use-isnan': 'error',
      'valid-typeof': 'error',
      '@typescript-eslint/no-duplicate-enum-values': 'error',
      '@typescript-eslint/no-extra-non-null-assertion': 'error',
      '@typescript-eslint/no-misused-new': 'error',
      '@typescript-eslint/no-non-null-asserted-optional-chain': 'error',
      '@typescript-eslint/no-unsafe-declaration-merging': 'error',
    },
  },
  {
    // Plain JavaScript is not type-checked by tsc (no allowJs), so it gets the checks tsc does for .ts.
    files: ['**/*.{js,mjs,cjs}'],
    rules: {
      'getter-return': 'error',
      'no-const-assign': 'error',
      'no-dupe-args': 'error',
      'no-dupe-class-members': 'error',
      'no-func-assign': 'error',
      'no-import-assign': 'error',
      'no-this-before-super': 'error',
      'no-unreachable': 'error',
      'no-unused-vars': 'error',
    },
  },
];
