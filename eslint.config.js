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

/**
 * The server's layers (DESIGN §3), bottom to top; an import only ever points down:
 *  1. infrastructure: lib/, db/, http/ and config.ts import no module;
 *  2. primitive modules, which several areas share (card states, inputs, prepared two-phase writes; sessions
 *     and lock-out; the password seal), import no area;
 *  3. the areas, in the order of serverAreas: an area imports only the areas listed before it (so two areas
 *     never import each other; when one needs the other, the shared piece moves down into a primitive, or
 *     app.ts hands it over as a function or an interface the area owns);
 *  4. composing modules, whose routes serve several areas (card-management: both card kinds, the gate set-up);
 *  5. the top: services.ts wires the services together, app.ts the routes; main.ts, cli/ and seed/ start
 *     them. Nothing below imports the top.
 * Paths are resolved, so a relative import, a dynamic import() and a type import count alike; import-x/no-cycle
 * also keeps the files of one module from importing each other in a circle.
 */
const server = 'apps/server/src';
const serverInfrastructure = ['lib', 'db', 'http', 'config.ts'].map((path) => `${server}/${path}`);
const serverPrimitives = ['card-primitives', 'password-seal', 'sessions'];
const serverAreas = [
  'operation-log',
  'account',
  'menu',
  'auth',
  'licence',
  'enterprise',
  'sub-app',
  'version',
  'gm-account',
  'sso',
  'system-key-card',
  'admin-login-card',
  'backup-log',
  'backup',
  'oss',
  'tools',
];
const serverComposing = ['card-management'];
const serverTop = ['app.ts', 'services.ts', 'main.ts', 'cli', 'seed'].map((path) => `${server}/${path}`);
const serverModules = `${server}/modules`;
const serverModuleFolders = readdirSync(new URL(`${serverModules}/`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(new URL(`${serverModules}/${entry.name}/`, import.meta.url)).length > 0)
  .map((entry) => entry.name);
const unplacedServerModules = serverModuleFolders.filter((name) => ![...serverPrimitives, ...serverAreas, ...serverComposing].includes(name));
if (unplacedServerModules.length > 0) {
  throw new Error(`eslint.config.js: place apps/server/src/modules/${unplacedServerModules.join(', ')} in a layer (serverPrimitives, serverAreas or serverComposing)`);
}
const serverLayerZones = [
  {
    target: serverInfrastructure,
    from: [serverModules, ...serverTop],
    message: 'lib/, db/, http/ and config.ts import no module and not the top (DESIGN §3). Move the shared piece down here, or let the module pass it in.',
  },
  ...serverPrimitives.map((primitive) => ({
    target: `${serverModules}/${primitive}`,
    from: serverModules,
    except: serverPrimitives.map((name) => `./${name}`),
    message: `modules/${primitive} is a primitive below every area (DESIGN §3): it imports no area and no composing module.`,
  })),
  ...serverAreas.map((area, index) => ({
    target: `${serverModules}/${area}`,
    from: serverModules,
    except: [...serverPrimitives, ...serverAreas.slice(0, index + 1)].map((name) => `./${name}`),
    message: `modules/${area} imports only primitives and the areas listed before it in eslint.config.js (DESIGN §3). Move what both need into a primitive, receive it from app.ts or services.ts, or serve routes that need both from a composing module.`,
  })),
  {
    target: [...serverInfrastructure, serverModules],
    from: serverTop,
    message: 'Only the top (app.ts, services.ts, main.ts, cli/, seed/) imports the top (DESIGN §3): a module receives what it calls.',
  },
];

/**
 * cli/ parses a command's arguments and prints what it did (DESIGN §3, the top): the rows of a table are read and
 * written by the repository of the area that owns it, called through that area's service (or a module's service
 * that composes them, as modules/backup/restore-service.ts does for `campus restore`). So no query builder that
 * names a table, no raw SQL and no value import of kysely there; a type import is fine.
 */
const cliTableMessage = "cli/ does not touch tables: call the owning area's service (services.ts, or the module's own service) and add the method there.";
const cliTableSelectors = [
  'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|executeQuery)$/]',
  'TaggedTemplateExpression[tag.name="sql"]',
  'TaggedTemplateExpression[tag.object.name="sql"]',
  'ImportDeclaration[source.value="kysely"][importKind!="type"]',
].map((selector) => ({ selector, message: cliTableMessage }));

/**
 * Ports written as numbers where a test listens: the server suite runs its files in parallel workers (and on Node 20
 * and 24 at once), the browser suite in two workers, so a fixed port meets itself. A server test asks the system
 * (apps/server/test/support/free-port.ts); a browser spec names its number through portFor (e2e/support/env.ts), which moves
 * it into the worker's own range.
 */
const portNumber = 'Literal[raw=/^[1-9][0-9]*$/]';
const fixedPortSelectors = (message) =>
  [
    `CallExpression[callee.name=/^start(SecondServer|GateDeployment|ServerProcess)$/] > ${portNumber}`,
    `CallExpression:matches([callee.name=/^start/], [callee.property.name="listen"]) Property[key.name=/(^p|P)ort$/] > ${portNumber}.value`,
    `VariableDeclarator[id.name=/(^p|P)ort$/] > ${portNumber}.init`,
    `ArrayExpression > ObjectExpression > Property[key.name=/(^p|P)ort$/] > ${portNumber}.value`,
  ].map((selector) => ({ selector, message }));

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
    files: ['apps/shell/**/*.{ts,tsx}', 'apps/subapp-qy/**/*.{ts,tsx}', 'packages/subapp-sdk/**/*.{ts,tsx}', 'packages/create-campus-subapp/templates/*/src/**/*.{ts,tsx,js}'],
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
    files: [`${server}/**/*.ts`],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: serverLayerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // SHA-256 (and the password digest's SM3) through lib/hash.ts only: one place says how the server hashes
    files: [`${server}/**/*.ts`],
    ignores: [`${server}/lib/hash.ts`],
    rules: {
      'no-restricted-imports': ['error', ...['node:crypto', 'crypto'].map((name) => ({
        name,
        importNames: ['createHash', 'hash'],
        message: 'Hash through lib/hash.ts (sha256Hex, sha256Base64, digestHex): add the shape you need there.',
      }))],
    },
  },
  {
    files: [`${server}/cli/**/*.ts`],
    rules: { 'no-restricted-syntax': ['error', ...cliTableSelectors] },
  },
  {
    files: ['apps/server/test/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...fixedPortSelectors('A fixed port meets the same test in another worker or runtime: take freePort() from test/support/free-port.ts.')] },
  },
  {
    files: ['e2e/tests/**/*.ts', 'e2e/support/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...fixedPortSelectors("A port a spec names goes through portFor() (e2e/support/env.ts): the spec's other worker runs beside it.")] },
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
