// ESLint with type information over the extension, its tests and the graph page. tsc --noEmit
// (strict) checks types; this adds what tsc does not: floating promises, misused promises, and
// the recommended rule sets.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-artifacts/**', 'dist-vsix/**', '*.mjs'] },
  js.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Tests use node:test's describe/it, which return promises the runner awaits.
    files: ['test/**/*.ts'],
    // Stubs and tests handle JSON and fakes as loosely typed data on purpose.
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
  {
    files: ['media/**/*.js', 'test/editors/fakeLsp.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly', document: 'readonly', CSS: 'readonly', MouseEvent: 'readonly',
        acquireVsCodeApi: 'readonly', require: 'readonly', process: 'readonly', Buffer: 'readonly',
      },
    },
    rules: { eqeqeq: ['error', 'always'] },
  },
  { files: ['test/editors/fakeLsp.js'], languageOptions: { sourceType: 'commonjs' } },
);
