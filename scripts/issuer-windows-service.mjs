// The Windows card-issuer download's own parts (issue 47), used by build-issuer.mjs: app/service.mjs (what the
// service runs: the SCM protocol through koffi, a supervisor of the issuer, a rotated log) and app/service-install.mjs,
// and the .cmd scripts beside node.exe (install-service.cmd, uninstall-service.cmd, card.cmd). Both bundles import
// koffi, which stays outside (app/node_modules/koffi and app/node_modules/@koromix/koffi-win32-x64).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles the service and its installer into `app` (the download's app folder). */
export async function bundleWindowsService(app) {
  await build({
    entryPoints: {
      service: path.join(root, 'apps/card-issuer/src/windows/service-main.ts'),
      'service-install': path.join(root, 'apps/card-issuer/src/windows/service-install.ts'),
    },
    outdir: app,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['koffi'],
    logLevel: 'warning',
  });
}

const cmd = (lines) => `${lines.join('\r\n')}\r\n`;

/**
 * The .cmd scripts in the zip's root, beside start.cmd. The service's keep their window open (pause) so that a
 * double-click shows what happened; card.cmd is for a console, and uses start.cmd's data folder so that its virtual
 * reader commands act on the cards of the issuer start.cmd runs.
 */
export const windowsCmdScripts = {
  'install-service.cmd': cmd([
    '@echo off',
    'rem Installs the card issuer as the Windows service CampusCardIssuer. Run it as administrator.',
    '"%~dp0node.exe" "%~dp0app\\service-install.mjs" install',
    'set CAMPUS_RESULT=%ERRORLEVEL%',
    'pause',
    'exit /b %CAMPUS_RESULT%',
  ]),
  'uninstall-service.cmd': cmd([
    '@echo off',
    'rem Stops and removes the Windows service CampusCardIssuer (its data folder stays). Run it as administrator.',
    '"%~dp0node.exe" "%~dp0app\\service-install.mjs" uninstall',
    'set CAMPUS_RESULT=%ERRORLEVEL%',
    'pause',
    'exit /b %CAMPUS_RESULT%',
  ]),
  'card.cmd': cmd([
    '@echo off',
    'rem The card commands (card.cmd --help), e.g. card.cmd pcsc-format to make the data file on a new card.',
    'setlocal',
    'if "%CARD_ISSUER_DATA_DIR%"=="" set CARD_ISSUER_DATA_DIR=%~dp0data',
    '"%~dp0node.exe" "%~dp0app\\card-issuer.mjs" card %*',
    'exit /b %ERRORLEVEL%',
  ]),
};

export function writeWindowsCmdScripts(folder) {
  for (const [name, text] of Object.entries(windowsCmdScripts)) writeFileSync(path.join(folder, name), text);
}
