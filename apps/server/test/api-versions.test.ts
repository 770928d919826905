import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VersionEntry } from '@campus/contracts';
import { apiPaths, codes, reportVersionRules, shellServiceName, shellVersion } from '@campus/contracts';
import { call, databases, signIn, startServer } from './helpers.ts';
import type { TestServer } from './helpers.ts';

const serverEntry: VersionEntry = { address: os.hostname(), serviceName: 'campus-server', version: shellVersion };

describe.each(databases)('ReportVersion and VersionList (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  const report = (versions: unknown, withToken: string | undefined = token) =>
    call<null>(server, 'POST', apiPaths.reportVersion, { versions }, { token: withToken, language: 'en-US' });
  const list = async () => {
    const reply = await call<VersionEntry[]>(server, 'GET', apiPaths.versionList, undefined, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(codes.ok);
    return reply.body.data;
  };
  const storedRows = () => server.handle.db.selectFrom('program_versions').selectAll().orderBy('service_name').orderBy('address').execute();

  beforeAll(async () => {
    server = await startServer(kind);
    token = await signIn(server, 'staff', 'Staff#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it("lists this server's own entry first, even when nothing was reported", async () => {
    expect(await list()).toEqual([serverEntry]);
  });

  it('stores what is reported and lists it by service name, then address, after the server', async () => {
    const shell = { address: '10.0.0.5:6300', serviceName: shellServiceName, version: shellVersion };
    const reply = await report([
      { address: 'campus.example.com', serviceName: 'subapp-qy', version: '1.2.0+build.7' },
      shell,
      { address: 'a.example.com', serviceName: 'subapp-qy', version: '1.1.9' },
      { address: 'campus.example.com', serviceName: 'Card_Issuer', version: '2.0.0-rc.1' },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: codes.ok, msg: 'Success', data: null });
    expect(await list()).toEqual([
      serverEntry,
      { address: 'campus.example.com', serviceName: 'Card_Issuer', version: '2.0.0-rc.1' },
      shell,
      { address: 'a.example.com', serviceName: 'subapp-qy', version: '1.1.9' },
      { address: 'campus.example.com', serviceName: 'subapp-qy', version: '1.2.0+build.7' },
    ]);
  });

  it('a second report of one address and service replaces its version and time; others stay', async () => {
    const before = await storedRows();
    server.clock.advance(60_000);
    expect((await report([{ address: 'a.example.com', serviceName: 'subapp-qy', version: '1.3.0' }])).body.code).toBe(codes.ok);
    const after = await storedRows();
    expect(after).toHaveLength(before.length);
    const row = after.find((r) => r.address === 'a.example.com' && r.service_name === 'subapp-qy');
    const old = before.find((r) => r.address === 'a.example.com' && r.service_name === 'subapp-qy');
    expect(row?.version).toBe('1.3.0');
    expect(Number(row?.reported_at)).toBe(Number(old?.reported_at) + 60_000);
    const untouched = after.find((r) => r.address === 'campus.example.com' && r.service_name === 'subapp-qy');
    expect(untouched?.version).toBe('1.2.0+build.7');
    expect((await list()).filter((e) => e.serviceName === 'subapp-qy')).toEqual([
      { address: 'a.example.com', serviceName: 'subapp-qy', version: '1.3.0' },
      { address: 'campus.example.com', serviceName: 'subapp-qy', version: '1.2.0+build.7' },
    ]);
  });

  it('one report naming the same program twice keeps the later version', async () => {
    const reply = await report([
      { address: 'dup.example.com', serviceName: 'dup', version: '1.0' },
      { address: 'dup.example.com', serviceName: 'dup', version: '2.0' },
    ]);
    expect(reply.body.code).toBe(codes.ok);
    expect((await list()).filter((e) => e.serviceName === 'dup')).toEqual([{ address: 'dup.example.com', serviceName: 'dup', version: '2.0' }]);
  });

  it(`accepts ${reportVersionRules.maxEntries} entries in one call and the longest fields`, async () => {
    const many = Array.from({ length: reportVersionRules.maxEntries }, (_, i) => ({ address: `host-${i}`, serviceName: 'bulk', version: `1.0.${i}` }));
    expect((await report(many)).body.code).toBe(codes.ok);
    expect((await list()).filter((e) => e.serviceName === 'bulk')).toHaveLength(reportVersionRules.maxEntries);
    const longest = { address: 'h'.repeat(255), serviceName: 's'.repeat(64), version: 'v'.repeat(64) };
    expect((await report([longest])).body.code).toBe(codes.ok);
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
