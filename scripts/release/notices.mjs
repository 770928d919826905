// THIRD-PARTY-NOTICES: the licence of every package bundled into or shipped with a release, and Node's own.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const licenceFile = (dir) => readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(file) || /^licen[cs]e[-.]/i.test(file));

function noticeOf(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = licenceFile(dir);
  const text = file ? readFileSync(path.join(dir, file), 'utf8').trim() : `(no licence file in the package; package.json says: ${manifest.license ?? 'nothing'})`;
  return { title: `${manifest.name}@${manifest.version} (${manifest.license ?? 'licence not named'})`, text };
}

/** Gathers esbuild's legal comments (*.LEGAL.txt beside the bundles, removed) and the packages' licence files. */
export function writeNotices(root, releaseDir, { bundledPackages, shippedDirs }) {
  const sections = [];
  const seen = new Set();
  const add = ({ title, text }) => {
    if (seen.has(title)) return;
    seen.add(title);
    sections.push(`${title}\n${'-'.repeat(Math.min(title.length, 100))}\n\n${text}\n`);
  };
  for (const folder of bundledPackages) {
    const dir = path.resolve(root, folder);
    if (existsSync(path.join(dir, 'package.json'))) add(noticeOf(dir));
    else throw new Error(`bundled package ${folder} has no package.json for its licence`);
  }
  for (const dir of shippedDirs) add(noticeOf(dir));
  const nodeLicence = path.join(releaseDir, 'node', 'LICENSE');
  if (existsSync(nodeLicence)) add({ title: 'Node.js (node/)', text: readFileSync(nodeLicence, 'utf8').trim() });

  const bundleDir = path.join(releaseDir, 'apps/server/dist');
  const legal = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (entry.endsWith('.LEGAL.txt')) {
        legal.push(readFileSync(file, 'utf8').trim());
        rmSync(file);
      }
    }
  };
  walk(bundleDir);
  const comments = [...new Set(legal.join('\n').split(/\n(?=\S)/))].join('\n').trim();

  const text = [
    'Third-party software in this release',
    '====================================',
    '',
    'The campus shell server is compiled together with the packages below (apps/server/dist), or ships them in',
    'node_modules/ and node/. Each one\'s licence follows.',
    '',
    ...sections,
    'Licence comments kept from the bundled sources',
    '----------------------------------------------',
    '',
    comments || '(none)',
    '',
  ].join('\n');
  writeFileSync(path.join(releaseDir, 'THIRD-PARTY-NOTICES'), text);
}
