// @vitest-environment node
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import source from '../package.json';

const root = path.resolve(import.meta.dirname, '../../..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

// The package a team at another company installs: packed by the script the build runs, unpacked in a folder
// outside the repository, where no workspace link can stand in for it.
describe('the packed SDK, outside the repository', () => {
  let work: string;
  let project: string;
  let files: string[];

  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'sdk-pack-test-'));
    execFileSync(process.execPath, [path.join(root, 'scripts/pack-subapp-sdk.mjs'), '--out', path.join(work, 'out')], { stdio: 'pipe' });
    const tarball = path.join(work, 'out', `campus-subapp-sdk-${source.version}.tgz`);
    files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    project = path.join(work, 'consumer');
    const installed = path.join(project, 'node_modules/@campus/subapp-sdk');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  }, 60_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds the built entries with their declarations and the guide, no source and no tests', () => {
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/dist/react.js');
    expect(files).toContain('package/README.md');
    expect(files.filter((file) => file.includes('/src/') || file.includes('.test.'))).toEqual([]);
    expect(readFileSync(path.join(work, 'out/campus-subapp-sdk-guide.md'), 'utf8')).toBe(readFileSync(path.join(root, 'packages/subapp-sdk/README.md'), 'utf8'));
  }, 60_000);

  it('is installable: not private, React a peer, the shells it fits named, every entry built', () => {
    const pkg = JSON.parse(readFileSync(path.join(project, 'node_modules/@campus/subapp-sdk/package.json'), 'utf8'));
    expect(pkg.private).toBeUndefined();
    expect(pkg.version).toBe(source.version);
    expect(pkg.dependencies).toBeUndefined();
    // React 18 or 19 (issue 48 item 17): an app on 18 installs without --legacy-peer-deps
    // Vue 3 for @campus/subapp-sdk/vue (issue 48 item 16), optional like React: an app installs only its own framework
    expect(pkg.peerDependencies).toEqual({ react: '^18.0.0 || ^19.0.0', 'react-dom': '^18.0.0 || ^19.0.0', vite: '>=7.0.0', vue: '^3.3.0' });
    expect(Object.values(pkg.peerDependenciesMeta)).toEqual([{ optional: true }, { optional: true }, { optional: true }, { optional: true }]);
    expect(pkg.exports['./vue']).toEqual({ types: './dist/vue.d.ts', default: './dist/vue.js' });
    expect(pkg.campusShell).toBe(source.campusShell);
    expect(Object.keys(pkg.exports)).toEqual(Object.keys(source.exports));
    expect(pkg.exports['./time']).toEqual({ types: './dist/time.d.ts', default: './dist/time.js' });
  }, 60_000);

  it('runs as ESM under Node, from the package name', () => {
    writeFileSync(
      path.join(project, 'consumer.mjs'),
      [
        "import { sdkVersion, defineSubApp, formatCount } from '@campus/subapp-sdk';",
        "import { zoneName } from '@campus/subapp-sdk/time';",
        "import { campusSubApp } from '@campus/subapp-sdk/vite';",
        'const app = defineSubApp({ mount: () => {} });',
        'console.log(JSON.stringify({ sdkVersion, lifecycles: Object.keys(app).sort(), count: formatCount(12345, "en-US"), zone: zoneName(480), plugin: campusSubApp({ name: "orders", version: "1.0.0" }).name }));',
      ].join('\n'),
    );
    const out = JSON.parse(execFileSync(process.execPath, ['consumer.mjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual({ sdkVersion: source.version, lifecycles: ['bootstrap', 'mount', 'unmount', 'update'], count: '12,345', zone: 'UTC+8', plugin: 'campus-subapp' });
  }, 60_000);

  it('type-checks a consumer with its declarations, and they are real types (a wrong use is an error)', () => {
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, skipLibCheck: false, types: [] }, include: ['app.ts'] }),
    );
    const check = (body: string) => {
      writeFileSync(path.join(project, 'app.ts'), body);
      return spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    };
    const good = check([
      "import { defineSubApp, type ShellProps, type SubAppContext } from '@campus/subapp-sdk';",
      "import { formatTime } from '@campus/subapp-sdk/time';",
      'export const lifecycles = defineSubApp({ name: "orders", version: "1.0.0", mount: (context: SubAppContext) => { context.root.textContent = context.props.userInfo.name; } });',
      'export const when = (props: ShellProps) => formatTime(Date.now(), { utcDiff: props.globalConfig.utcDiff, language: props.language, style: "log" });',
    ].join('\n'));
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    const wrong = check("import { sdkVersion } from '@campus/subapp-sdk';\nexport const n: number = sdkVersion;\n");
    expect(wrong.stdout).toContain("Type 'string' is not assignable to type 'number'");
  }, 60_000);
});
