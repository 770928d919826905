// The Windows service part of the Windows card-issuer download (issue 47), used by build-issuer.mjs and the Wine
// test: app/service.mjs (what the service runs: the SCM protocol through koffi, a supervisor of the issuer, a rotated
// log) and app/service-install.mjs, with install-service.cmd and uninstall-service.cmd beside node.exe. Both bundles
// import koffi, which stays outside (app/node_modules/koffi and app/node_modules/@koromix/koffi-win32-x64).
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

/** The scripts in the zip's root; each keeps its window open (pause) so a double-click shows what happened. */
export const windowsServiceScripts = {
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
};

export function writeWindowsServiceScripts(folder) {
  for (const [name, text] of Object.entries(windowsServiceScripts)) writeFileSync(path.join(folder, name), text);
}
