#!/usr/bin/env node
// create-campus-subapp <folder> [--plain]: makes a new sub-app of the campus shell in <folder>, ready to test,
// build and open in the shell: React, TypeScript and Vite with the sub-app SDK (or, with --plain, JavaScript
// without React). The SDK comes from the tarball inside this package (vendor/), so the new app needs nothing of
// the shell's repository; its other packages come from the npm registry at `npm install`.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const usage = `Usage: create-campus-subapp <folder> [--plain]

Makes a new sub-app of the campus shell in <folder>; the folder's name is the app's name (lowercase letters,
digits, '.', '_' and '-', e.g. partner-orders).
  --plain   JavaScript without React (default: React and TypeScript)`;

function fail(message) {
  console.error(`create-campus-subapp: ${message}`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--plain');
if (unknown.length > 0) fail(`unknown option ${unknown[0]}\n\n${usage}`);
const folders = args.filter((arg) => !arg.startsWith('-'));
if (folders.length !== 1) fail(`name one folder to make the app in\n\n${usage}`);
const plain = args.includes('--plain');

const target = path.resolve(folders[0]);
const name = path.basename(target);
// an npm package name that the shell also takes as the app's report-version serviceName
if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(name)) fail(`"${name}" cannot be an app's name: use lowercase letters, digits, '.', '_' and '-', starting with a letter or digit (e.g. partner-orders)`);
if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) fail(`${target} is not empty: name a new folder`);

const versions = JSON.parse(readFileSync(path.join(here, 'versions.json'), 'utf8'));
const sdkTarball = `campus-subapp-sdk-${versions.sdk}.tgz`;
if (!existsSync(path.join(here, 'sdk', sdkTarball))) fail(`this starter lacks its SDK (sdk/${sdkTarball}): use the packed starter from the shell's /tools page`);

const template = path.join(here, 'templates', plain ? 'plain' : 'react');
mkdirSync(target, { recursive: true });
cpSync(template, target, { recursive: true, filter: (from) => !/[/\\](node_modules|dist)$/.test(from) });

const manifestFile = path.join(target, 'package.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
manifest.name = name;
for (const group of ['dependencies', 'devDependencies']) {
  for (const dependency of Object.keys(manifest[group] ?? {})) {
    manifest[group][dependency] = dependency === '@campus/subapp-sdk' ? `file:vendor/${sdkTarball}` : versions.packages[dependency];
    if (!manifest[group][dependency]) fail(`no version of ${dependency} in versions.json`);
  }
}
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
// the page of `npm run dev`, one for both templates
const page = readFileSync(path.join(here, 'templates', 'index.html'), 'utf8').replaceAll('campus-starter-app', name);
writeFileSync(path.join(target, 'index.html'), plain ? page.replace('/src/main.tsx', '/src/main.js') : page);
mkdirSync(path.join(target, 'vendor'));
cpSync(path.join(here, 'sdk', sdkTarball), path.join(target, 'vendor', sdkTarball));
writeFileSync(path.join(target, '.gitignore'), 'node_modules/\ndist/\n');

const shown = path.relative(process.cwd(), target) || '.';
console.log(`Made ${plain ? 'a JavaScript' : 'a React and TypeScript'} sub-app "${name}" in ${shown} (sub-app SDK ${versions.sdk}). Next:

  cd ${shown}
  npm install
  npm test            the app's test
  npm run build       dist/ is what the shell mounts
  npm run dev         the app on its own; sign in to the shell at /login on the address it prints, then open /
                      (a shell other than http://127.0.0.1:6300: CAMPUS_SHELL_URL=https://… npm run dev)

Into the shell: copy dist/ to the server's SUBAPPS_DIR/<base path>/ and register the system there
(npm run subapp -- add <manifest.json>); the SDK's guide, on the shell's /tools page, says it step by step.`);
