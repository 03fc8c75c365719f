// ESLint for the whole workspace, run by `npm test` (tools/devstack/src/stack/lint.ts) and
// `npm run lint`. Formatting is prettier's (prettier.config.mjs); this file holds only the rules
// about code: the recommended sets the code already follows, and the import boundaries.
// No rule needs type information, so a lint run does not pay for a TypeScript program.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importBoundaries } from './lint/import-boundaries.mjs';

const root = import.meta.dirname;
const boundary = ['error', { root }];

export default defineConfig(
  {
    // Compiled output, generated code (`npm run proto:gen`), installed tools and the local stack's data.
    ignores: ['**/dist/', '**/node_modules/', 'packages/proto/src/generated/', '.stack/', '.tools/', '.schemathesis/', '**/bench/results/'],
  },
  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A variable a closure reads before its one assignment (a timer the callback clears, a server
      // the handler reaches) cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.{ts,mts,cts}'],
    extends: [tseslint.configs.recommended],
    rules: {
      // The house marks a deliberately unused name with a leading underscore (an Express error
      // handler's `_next`), and leaves fields out of a copy with a rest pattern (`{ _id, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON answers loosely; production code types what it reads.
    files: ['**/*.spec.ts', 'test/src/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
    plugins: { stormhook: importBoundaries },
    rules: {
      'stormhook/no-cross-service-imports': boundary,
      'stormhook/no-package-imports-service': boundary,
      'stormhook/no-transport-to-persistence': boundary,
      'stormhook/no-domain-to-outer-layers': boundary,
      'stormhook/no-adapter-to-callers': boundary,
      'stormhook/config-only-in-composition': boundary,
    },
  },
  {
    // A test arranges what it tests: a transport spec may seed or fake the store behind the use case.
    files: ['**/*.spec.ts'],
    rules: {
      'stormhook/no-transport-to-persistence': 'off',
      'stormhook/no-domain-to-outer-layers': 'off',
      'stormhook/no-adapter-to-callers': 'off',
      'stormhook/config-only-in-composition': 'off',
    },
  },
  {
    // Test harnesses and benchmarks put a whole service together, as its service.ts does.
    files: ['services/*/src/test-support/**', 'services/*/src/bench/**'],
    rules: { 'stormhook/config-only-in-composition': 'off' },
  },
);
