import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VersionEntry } from '@campus/contracts';
import { apiPaths, codeMessage, codes, reportVersionRules, shellServiceName, shellVersion } from '@campus/contracts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const serverEntry: VersionEntry = { address: os.hostname(), serviceName: 'campus-server', version: shellVersion };

describe.each(databases)('ReportVersion and VersionList (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  const shell: VersionEntry = { address: '10.0.0.5:6300', serviceName: shellServiceName, version: shellVersion };
  const attendance: VersionEntry = { address: '10.0.0.5:6300', serviceName: 'kq-attendance', version: '2.4.1' };
  const door: VersionEntry = { address: 'door.example.com', serviceName: 'mj-door', version: '5.0.0' };
  const report = (versions: unknown, withToken: string | undefined = token) =>
    call<null>(server, 'POST', apiPaths.reportVersion, { versions }, { token: withToken, language: 'en-US' });
  const list = async (query = '') => {
    const reply = await call<VersionEntry[]>(server, 'GET', `${apiPaths.versionList}${query}`, undefined, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(codes.ok);
    return { rows: reply.body.data, count: reply.body.recordCount };
  };
  const storedRows = () => server.handle.db.selectFrom('program_versions').selectAll().orderBy('service_name').orderBy('address').execute();

  beforeAll(async () => {
    // attendance (kq) installed on this server with its report-version file; door access (mj) on another server
    server = await startServer(kind, { env: { SUBAPP_ENTRIES: 'mj=https://door.example.com/build/' } });
    const kq = path.join(server.config.subAppsDir, 'kq');
    fs.mkdirSync(kq, { recursive: true });
    fs.writeFileSync(path.join(kq, 'index.html'), '<!doctype html><title>kq</title>');
    fs.writeFileSync(path.join(kq, 'report-version.json'), JSON.stringify({ serviceName: attendance.serviceName, version: attendance.version }));
    token = await signIn(server, 'staff', 'Staff#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it("lists this server's own entry first, even when nothing was reported", async () => {
    expect(await list()).toEqual({ rows: [serverEntry], count: 1 });
  });

  it("stores the shell, the installed sub-apps at their files' versions and other servers' sub-apps under their host", async () => {
    const reply = await report([attendance, shell, door]);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: codes.ok, msg: 'Success', data: null });
    expect(await list()).toEqual({ rows: [serverEntry, attendance, shell, door], count: 4 });
  });

  it('one row per program: a report from another address replaces it in place', async () => {
    server.clock.advance(60_000);
    const fromElsewhere = { ...shell, address: 'campus.example.com' };
    expect((await report([fromElsewhere])).body.code).toBe(codes.ok);
    const rows = await storedRows();
    expect(rows.filter((r) => r.service_name === shellServiceName)).toEqual([
      expect.objectContaining({ address: 'campus.example.com', version: shellVersion }),
    ]);
    expect(rows).toHaveLength(3);
  });

  it.each([
    ['a program the installation does not have', { address: 'h', serviceName: 'anything', version: '1' }],
    ['the shell at another version than this server', { ...shell, version: '9.9.9' }],
    ['an installed sub-app at another version than its file', { ...attendance, version: '2.4.2' }],
    ["another server's sub-app under another host", { ...door, address: 'evil.example.com' }],
  ])('%s: HTTP 400 naming the entry, and nothing of the call is stored', async (_name, entry) => {
    const before = await storedRows();
    const reply = await report([attendance, entry]);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(codes.versionNotReportable);
    expect(reply.body.msg).toBe(`Not a program of this installation: ${entry.serviceName} ${entry.version} at ${entry.address}`);
    expect(await storedRows()).toEqual(before);
  });

  it("another server's host holds at most as many programs as sub-apps are configured there", async () => {
    const before = await storedRows();
    const second = await report([{ ...door, serviceName: 'mj-door-2' }]);
    expect(second.status).toBe(400);
    expect(await storedRows()).toEqual(before);
    // the one it has may change its name (a new build)
    expect((await report([door])).body.code).toBe(codes.ok);
  });

  it('ReportFolders names the folders on this server that hold a report-version file, and only those (issue 27, item 12)', async () => {
    const folders = async () => {
      const reply = await call<string[]>(server, 'GET', apiPaths.reportFolders, undefined, { token });
      expect(reply.status).toBe(200);
      return reply.body.data;
    };
    const before = await folders();
    expect(before).toContain('kq');
    // no device service here, and door access lives on another server: the shell is not sent to ask for them
    expect(before).not.toContain('device');
    expect(before).not.toContain('mj');
    const device = path.join(server.config.subAppsDir, 'device');
    fs.mkdirSync(device, { recursive: true });
    fs.writeFileSync(path.join(device, 'report-version.json'), JSON.stringify({ serviceName: 'device-service', version: '1.0.0' }));
    expect(await folders()).toContain('device');
    fs.rmSync(device, { recursive: true, force: true });
    expect((await call(server, 'GET', apiPaths.reportFolders)).status).toBe(401);
  });

  it('one report naming the same program twice keeps the later one', async () => {
    const reply = await report([{ ...shell, address: 'a.example.com' }, { ...shell, address: 'b.example.com' }]);
    expect(reply.body.code).toBe(codes.ok);
    expect((await list()).rows.filter((e) => e.serviceName === shellServiceName)).toEqual([{ ...shell, address: 'b.example.com' }]);
  });

  it('VersionList is paged; recordCount counts every row, this server included', async () => {
    expect(await list('?index=1&size=2')).toEqual({ rows: [serverEntry, attendance], count: 4 });
    const second = await list('?index=2&size=2');
    expect(second.rows.map((r) => r.serviceName)).toEqual([shellServiceName, door.serviceName]);
    expect(await list('?index=3&size=2')).toEqual({ rows: [], count: 4 });
    for (const [query, field] of [['?index=0', 'index'], ['?size=0', 'size'], [`?size=${reportVersionRules.maxPageSize + 1}`, 'size'], ['?index=x', 'index'], ['?size=-1', 'size']]) {
      const reply = await call(server, 'GET', `${apiPaths.versionList}${query}`, undefined, { token, language: 'zh-MO' });
      expect(reply.status, query).toBe(400);
      expect(reply.body.msg, query).toContain(field);
      // found by the route fuzzer: the size past the largest page was refused in English whatever the language
      expect(reply.body.msg, query).toMatch(new RegExp(`^${codeMessage(codes.badRequest, 'zh-MO')}: `));
    }
  });

  it.each([
    ['51 entries', Array.from({ length: 51 }, (_, i) => ({ address: `h${i}`, serviceName: 'x', version: '1' })), 'versions'],
    ['no entries', [], 'versions'],
    ['versions not a list', 'main-front', 'versions'],
    ['an empty address', [{ address: '', serviceName: 'x', version: '1' }], 'address'],
    ['an address of 256 characters', [{ address: 'h'.repeat(256), serviceName: 'x', version: '1' }], 'address'],
    ['an address with a space', [{ address: 'my host', serviceName: 'x', version: '1' }], 'address'],
    ['an address with a line break', [{ address: 'host\nX-Evil: 1', serviceName: 'x', version: '1' }], 'address'],
    ['an address with a tab', [{ address: 'host\t1', serviceName: 'x', version: '1' }], 'address'],
    ['no address', [{ serviceName: 'x', version: '1' }], 'address'],
    ['a service name with a slash', [{ address: 'h', serviceName: 'a/b', version: '1' }], 'serviceName'],
    ['a service name with a plus', [{ address: 'h', serviceName: 'a+b', version: '1' }], 'serviceName'],
    ['a service name of 65 characters', [{ address: 'h', serviceName: 's'.repeat(65), version: '1' }], 'serviceName'],
    ['an empty service name', [{ address: 'h', serviceName: '', version: '1' }], 'serviceName'],
    ['a version with a space', [{ address: 'h', serviceName: 'x', version: '1.0 beta' }], 'version'],
    ['a version with markup', [{ address: 'h', serviceName: 'x', version: '<b>1</b>' }], 'version'],
    ['a version of 65 characters', [{ address: 'h', serviceName: 'x', version: 'v'.repeat(65) }], 'version'],
    ['a version that is a number', [{ address: 'h', serviceName: 'x', version: 1 }], 'version'],
  ])('%s: HTTP 400 naming the field, nothing stored', async (_name, versions, field) => {
    const before = await storedRows();
    const reply = await report(versions);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(codes.badRequest);
    expect(reply.body.msg).toContain(field);
    expect(await storedRows()).toEqual(before);
  });

  it('one bad entry among good ones: nothing of the call is stored', async () => {
    const before = await storedRows();
    const reply = await report([
      { address: 'good.example.com', serviceName: 'good', version: '1' },
      { address: 'bad host', serviceName: 'good', version: '1' },
    ]);
    expect(reply.status).toBe(400);
    expect(await storedRows()).toEqual(before);
  });

  it('without a session: HTTP 401 for both calls, nothing stored', async () => {
    const before = await storedRows();
    const none = await call(server, 'POST', apiPaths.reportVersion, { versions: [{ address: 'h', serviceName: 'x', version: '1' }] });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(codes.tokenInvalid);
    expect((await report([{ address: 'h', serviceName: 'x', version: '1' }], 'not-a-token')).status).toBe(401);
    expect((await call(server, 'GET', apiPaths.versionList)).status).toBe(401);
    expect(await storedRows()).toEqual(before);
  });

  it('are described in the OpenAPI document', async () => {
    const json = (await (await fetch(`${server.url}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(json.paths[apiPaths.reportVersion]?.post).toBeDefined();
    expect(json.paths[apiPaths.versionList]?.get).toBeDefined();
  });
});
