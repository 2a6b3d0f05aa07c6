// ESLint flat config for the client workspace (the Python server is linted by ruff).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      'client/dist/',
      '.venv/',
      'var/',
      'realtime/',
      'storage/',
      'tests/',
      // infra/ is Python and shell, but for Node's socket.io bench server (linted below).
      'infra/**/*',
      '!infra/bench/',
      '!infra/bench/*.mjs',
    ],
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.strictTypeChecked,
      tseslint.configs.stylisticTypeChecked,
      reactHooks.configs.flat.recommended,
    ],
    languageOptions: {
      ecmaVersion: 2023,
      globals: globals.browser,
      parserOptions: {
        project: ['client/tsconfig.app.json', 'client/tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['client/src/**/*.test.{ts,tsx}', 'client/src/test/**'],
    rules: {
      // Fakes in tests implement async interfaces with synchronous bodies.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['*.js', 'infra/bench/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
