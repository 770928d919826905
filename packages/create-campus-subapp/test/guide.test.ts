import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const starter = path.resolve(import.meta.dirname, '..');
const guide = readFileSync(path.resolve(starter, '../subapp-sdk/README.md'), 'utf8');

/** The guide's code blocks marked `<!-- starter: <file> -->`, with the file they say they show. */
function starterSnippets(): { file: string; shown: string }[] {
  return [...guide.matchAll(/<!-- starter: (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((match) => ({ file: match[1]!, shown: match[2]! }));
}

// The guide (packages/subapp-sdk/README.md, also on /tools) shows the starter's files as they are: a change of the
// starter that the guide does not follow fails here, so the guide cannot drift from what teams get.
describe('the sub-app guide', () => {
  it('shows the starter’s entry, build configuration and test, React and Vue', () => {
    expect(starterSnippets().map((snippet) => snippet.file)).toEqual([
      'templates/react/src/main.tsx',
      'templates/react/vite.config.ts',
      'templates/react/src/app.test.tsx',
      'templates/vue/src/main.ts',
      'templates/vue/src/App.vue',
      'templates/vue/vite.config.ts',
      'templates/vue/src/app.test.ts',
    ]);
  });

  it('shows each of them exactly as the starter has it', () => {
    for (const { file, shown } of starterSnippets()) expect(shown, file).toBe(readFileSync(path.join(starter, file), 'utf8'));
  });

  it('gives the commands the browser suite runs (e2e/tests/starter-sub-app.spec.ts)', () => {
    for (const command of ['npx --yes ./create-campus-subapp-<version>.tgz partner-orders ', '--plain', '--vue', 'npm install\n', 'npm test\n', 'npm run build\n', 'npm run subapp -- add subapp-manifest.json', '--code porders', 'npm run dev']) {
      expect(guide).toContain(command);
    }
  });

  // Issue 48 item 18: a team at another company has the guide and the starter, not this repository nor its spec.
  it('stands alone: no section of a spec or design, no path or workspace of this repository', () => {
    const internal = [/§/, /\bDESIGN\b/, /\bspec\b/i, /\bREADME\b/, /(?<![/\w])(apps|packages|e2e|scripts|docs|deploy|bench)\/[a-z]/, /\s-w\s/, /subapp-qy/];
    for (const pattern of internal) expect(guide.match(pattern)?.[0], String(pattern)).toBeUndefined();
  });

  it('lists the shell calls a sub-app may make and points to the deployment’s own API description', () => {
    const calls = [...guide.matchAll(/^\| `(GET|POST) (\/[^`]+)` \|/gm)].map((match) => `${match[1]} ${match[2]}`);
    expect(calls).toContain('GET /qy/api/User/GetDetailByToken');
    expect(calls.length).toBeGreaterThanOrEqual(10);
    expect(guide).toContain('its API description is\nat `/docs` on the shell\'s address');
  });
});
