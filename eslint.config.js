// ESLint with typescript-eslint's type-aware rules: floating promises, misused promises and unsafe
// any are the bugs a streaming, network-heavy codebase makes; formatting is Prettier's job.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The framework example projects (examples/<framework>/) are projects of their own, built by their own tools.
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'docs/api/',
      'test/conformance/corpus/',
      'bench/.data/',
      'examples/*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // node:test's test() and describe() are awaited by the runner itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
