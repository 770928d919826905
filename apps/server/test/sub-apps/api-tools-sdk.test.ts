import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@campus/contracts';
import { databases, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

type Tool = { fileName: string; showName: string; use: string; url: string };

// Every deployment offers the sub-app SDK and its guide on /tools (issue 28): a team at another company gets them
// from the customer's own server.
describe.each(databases)('the sub-app SDK under /tools (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    const dir = tempDir('campus-sdk-downloads-');
    fs.writeFileSync(path.join(dir, 'campus-subapp-sdk-1.4.2.tgz'), 'the package');
    fs.writeFileSync(path.join(dir, 'campus-subapp-sdk-guide.md'), '# The guide');
    fs.writeFileSync(path.join(dir, 'create-campus-subapp-1.4.2.tgz'), 'the starter');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a download');
    // not a gate deployment: no card issuer downloads, the SDK all the same
    server = await startServer(kind, { env: { MJ_SYSTEM: '1' }, config: { sdkDownloadsDir: dir } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (language: string) => (await (await fetch(`${server.url}${apiPaths.toolsList}`, { headers: { language } })).json()) as Tool[];

  it('lists the package with its version, the starter, then the guide, in the language asked for', async () => {
    const english = (await list('en-US')).filter((t) => /campus-subapp/.test(t.fileName));
    expect(english).toEqual([
      {
        fileName: 'campus-subapp-sdk-1.4.2.tgz',
        showName: 'Sub-app SDK 1.4.2 (npm package)',
        use: 'For teams building a sub-system for this shell: npm install ./campus-subapp-sdk-1.4.2.tgz (the guide says the rest)',
        url: '/tools/campus-subapp-sdk-1.4.2.tgz',
      },
      {
        fileName: 'create-campus-subapp-1.4.2.tgz',
        showName: 'Sub-app starter 1.4.2',
        use: 'Makes a new sub-app with the SDK: npx --yes ./create-campus-subapp-1.4.2.tgz my-app (add --plain for JavaScript without React)',
        url: '/tools/create-campus-subapp-1.4.2.tgz',
      },
      { fileName: 'campus-subapp-sdk-guide.md', showName: 'Sub-app SDK guide', use: expect.stringContaining('step by step'), url: '/tools/campus-subapp-sdk-guide.md' },
    ]);
    const chinese = (await list('zh-CN')).filter((t) => /campus-subapp/.test(t.fileName)).map((t) => t.showName);
    expect(chinese).toEqual(['子应用 SDK 1.4.2（npm 包）', '子应用起步模板 1.4.2', '子应用 SDK 指南']);
    expect((await list('zh-MO')).some((t) => t.showName === '子應用 SDK 指南')).toBe(true);
  });

  it('serves both as downloads, and nothing else of that folder', async () => {
    const tarball = await fetch(`${server.url}/tools/campus-subapp-sdk-1.4.2.tgz`);
    expect([tarball.status, tarball.headers.get('content-disposition'), await tarball.text()]).toEqual([200, expect.stringContaining('attachment'), 'the package']);
    expect(await (await fetch(`${server.url}/tools/campus-subapp-sdk-guide.md`)).text()).toBe('# The guide');
    expect(await (await fetch(`${server.url}/tools/create-campus-subapp-1.4.2.tgz`)).text()).toBe('the starter');
    expect((await fetch(`${server.url}/tools/notes.txt`)).status).toBe(404);
    expect((await list('en-US')).some((t) => t.fileName === 'notes.txt')).toBe(false);
  });

  // Issue 48 item 18: the guide lists the shell calls a sub-app may make; each is one this server answers, as the
  // API description the guide points to (/docs, /docs/json) describes it.
  it('answers every shell call the guide lists, and describes each at the address the guide gives', async () => {
    const guide = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../packages/subapp-sdk/README.md'), 'utf8');
    const calls = [...guide.matchAll(/^\| `(GET|POST) (\/[^`]+)` \|/gm)].map((match) => ({ method: match[1]!.toLowerCase(), path: match[2]! }));
    expect(calls.length).toBeGreaterThanOrEqual(10);
    const description = (await (await fetch(`${server.url}/docs/json`)).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(description.openapi).toMatch(/^3\./);
    expect(calls.filter((call) => description.paths[call.path]?.[call.method] === undefined)).toEqual([]);
    expect((await fetch(`${server.url}/docs`, { redirect: 'follow' })).status).toBe(200);
  });
});
