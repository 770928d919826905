import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

/**
 * The shell's layers (DESIGN §3): lib -> features -> app. lib/ knows no feature and no app; a feature imports
 * lib/ and itself, never another feature nor app/ (the app layer wires features together). Paths are
 * resolved, so a relative import, a dynamic import() and a type import count alike.
 */
const shell = 'apps/shell/src';
const shellFeatures = readdirSync(new URL(`${shell}/features/`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const shellLayerZones = [
  {
    target: `${shell}/lib`,
    from: [`${shell}/features`, `${shell}/app`],
    message: 'lib/ knows no feature and no app (DESIGN §3: lib -> features -> app). Move the code into the feature, or take what you need as a parameter or a registration (e.g. onSignOut).',
  },
  {
    target: `${shell}/features`,
    from: `${shell}/app`,
    message: 'A feature does not import the app layer (DESIGN §3: lib -> features -> app).',
  },
  ...shellFeatures.map((feature) => ({
    target: `${shell}/features/${feature}`,
    from: `${shell}/features`,
    except: [`./${feature}`],
    message: `features/${feature} does not import another feature (DESIGN §3): shared code lives in lib/, and the app layer wires features together (callbacks, props).`,
  })),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/reports/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/shell/**/*.{ts,tsx}', 'apps/subapp-qy/**/*.{ts,tsx}', 'packages/subapp-sdk/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/shell/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // the shell's imports name their files (`./x.ts`); the rules parse what they follow as TypeScript
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: shellLayerZones }],
      // no import cycles in the shell (lib/ above all); packages in node_modules are not followed
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/card-issuer/panel/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.{js,mjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
