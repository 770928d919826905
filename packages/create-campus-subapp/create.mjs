#!/usr/bin/env node
// create-campus-subapp <folder> [--plain | --vue]: makes a new sub-app of the campus shell in <folder>, ready to
// test, build and open in the shell: React, TypeScript and Vite with the sub-app SDK (or, with --plain, JavaScript
// without React; with --vue, Vue 3 and TypeScript). The SDK comes from the tarball inside this package (vendor/), so the new app needs nothing of
// the shell's repository; its other packages come from the npm registry at `npm install`.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const usage = `Usage: create-campus-subapp <folder> [--plain | --vue] [--code <code>]

Makes a new sub-app of the campus shell in <folder>; the folder's name is the app's name (lowercase letters,
digits, '.', '_' and '-', e.g. partner-orders). It writes subapp-manifest.json, the system the operator registers.
  --plain         JavaScript without React (default: React and TypeScript)
  --vue           Vue 3 and TypeScript
  --code <code>   the system code and base path (2 to 16 lowercase letters and digits, starting with a letter;
                  default: the app's name without its other characters, e.g. partnerorders)`;

function fail(message) {
  console.error(`create-campus-subapp: ${message}`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
// --code <code> or --code=<code>, taken out before the folder is looked for
let givenCode = null;
const codeAt = args.findIndex((arg) => arg === '--code' || arg.startsWith('--code='));
if (codeAt >= 0) {
  const joined = args[codeAt].startsWith('--code=');
  givenCode = joined ? args[codeAt].slice('--code='.length) : (args[codeAt + 1] ?? '');
  args.splice(codeAt, joined ? 1 : 2);
}
const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--plain' && arg !== '--vue');
if (unknown.length > 0) fail(`unknown option ${unknown[0]}\n\n${usage}`);
const folders = args.filter((arg) => !arg.startsWith('-'));
if (folders.length !== 1) fail(`name one folder to make the app in\n\n${usage}`);
const plain = args.includes('--plain');
const vue = args.includes('--vue');
if (plain && vue) fail(`--plain and --vue are two kinds of app: pick one\n\n${usage}`);
/** The template, the entry index.html loads under `npm run dev`, and how the app is described. */
const kind = plain
  ? { template: 'plain', entry: '/src/main.js', described: 'a JavaScript' }
  : vue
    ? { template: 'vue', entry: '/src/main.ts', described: 'a Vue and TypeScript' }
    : { template: 'react', entry: '/src/main.tsx', described: 'a React and TypeScript' };

const target = path.resolve(folders[0]);
const name = path.basename(target);
// an npm package name that the shell also takes as the app's report-version serviceName
if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(name)) fail(`"${name}" cannot be an app's name: use lowercase letters, digits, '.', '_' and '-', starting with a letter or digit (e.g. partner-orders)`);
// the system code the shell knows the app by (the manifest's appNo and base path): the server's pattern
const codePattern = /^[a-z][a-z0-9]{1,15}$/;
const code = givenCode ?? name.replace(/[^a-z0-9]/g, '').slice(0, 16);
if (!codePattern.test(code)) {
  fail(givenCode === null
    ? `"${name}" gives no system code ("${code}"): a code is 2 to 16 lowercase letters and digits, starting with a letter; name one with --code (e.g. --code porders)`
    : `"${code}" cannot be a system code: a code is 2 to 16 lowercase letters and digits, starting with a letter (e.g. porders)`);
}
if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) fail(`${target} is not empty: name a new folder`);

const versions = JSON.parse(readFileSync(path.join(here, 'versions.json'), 'utf8'));
const sdkTarball = `campus-subapp-sdk-${versions.sdk}.tgz`;
if (!existsSync(path.join(here, 'sdk', sdkTarball))) fail(`this starter lacks its SDK (sdk/${sdkTarball}): use the packed starter from the shell's /tools page`);

const template = path.join(here, 'templates', kind.template);
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
// the page of `npm run dev`, one for every template
const page = readFileSync(path.join(here, 'templates', 'index.html'), 'utf8').replaceAll('campus-starter-app', name);
writeFileSync(path.join(target, 'index.html'), page.replace('/src/main.tsx', kind.entry));
mkdirSync(path.join(target, 'vendor'));
cpSync(path.join(here, 'sdk', sdkTarball), path.join(target, 'vendor', sdkTarball));
writeFileSync(path.join(target, '.gitignore'), 'node_modules/\ndist/\n');
// the system as the operator registers it (`campus subapp add subapp-manifest.json`): a menu group with one page,
// labelled with the app's name in every language until the team writes its own
const label = name.split(/[^a-z0-9]+/).filter(Boolean).map((word) => word[0].toUpperCase() + word.slice(1)).join(' ').slice(0, 40);
const inEveryLanguage = (text) => ({ 'en-US': text, 'zh-CN': text, 'zh-MO': text });
const systemManifest = {
  appNo: code,
  label: inEveryLanguage(label),
  basePath: code,
  pages: [
    { id: `${code}-group`, path: '', name: 'group', title: inEveryLanguage(label) },
    { id: `${code}-home`, parentId: `${code}-group`, path: `/${code}/home`, name: 'home', title: { 'en-US': 'Home', 'zh-CN': '首页', 'zh-MO': '首頁' } },
  ],
};
writeFileSync(path.join(target, 'subapp-manifest.json'), `${JSON.stringify(systemManifest, null, 2)}\n`);

const shown = path.relative(process.cwd(), target) || '.';
console.log(`Made ${kind.described} sub-app "${name}" (system code ${code}) in ${shown} (sub-app SDK ${versions.sdk}). Next:

  cd ${shown}
  npm install
  npm test            the app's test
  npm run build       dist/ is what the shell mounts
  npm run dev         the app on its own; sign in to the shell at /login on the address it prints, then open /
                      (a shell other than http://127.0.0.1:6300: CAMPUS_SHELL_URL=https://… npm run dev)

Into the shell: copy dist/ to the server's SUBAPPS_DIR/${code}/, and the operator registers the system that
subapp-manifest.json describes (campus subapp add subapp-manifest.json); the SDK's guide, on the shell's /tools
page, says it step by step.`);
