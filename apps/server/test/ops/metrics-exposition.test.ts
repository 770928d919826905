import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes } from '@campus/contracts';
import { call, databases, newCaptcha, paths, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { promtool } from '../support/promtool.ts';

/** What Prometheus's own linter says of a scrape: nothing when all is well. */
function lint(text: string) {
  return promtool(['check', 'metrics'], text);
}

/** The value of one series in a scrape, or undefined when it has none. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

// The counters live in the process (one server a process in production); the describe of the second database runs
// in the same process after the first one's sign-ins, so a test compares with what the counter held before it.
describe.each(databases)('/metrics as Prometheus tools read it (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind, { env: { METRICS: 'on' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has a 0 series for every sign-in, lock-out and database-error label before the first event', async () => {
    const reply = await call(server, 'GET', '/metrics');
    expect(reply.status).toBe(200);
    const zeros = [
      'campus_sign_ins_total{kind="password"}', 'campus_sign_ins_total{kind="ldap"}', 'campus_sign_ins_total{kind="card"}',
      'campus_sign_in_failures_total{kind="password"}', 'campus_sign_in_failures_total{kind="ldap"}', 'campus_sign_in_failures_total{kind="card"}',
      'campus_lockouts_total{scope="account"}', 'campus_lockouts_total{scope="address"}',
      'campus_database_errors_total{kind="unavailable"}', 'campus_database_errors_total{kind="storage_full"}',
    ];
    for (const series of zeros) expect([series, valueOf(reply.text, series)]).toEqual([series, expect.any(Number)]);
    // what no test of this file sets off stays at 0 whichever database ran first
    for (const series of zeros.filter((name) => !/kind="password"|scope="account"/.test(name))) expect([series, valueOf(reply.text, series)]).toEqual([series, 0]);
  });

  it('says when the newest backup of the Backup Log was taken: 0 before the first, then its time in seconds', async () => {
    expect((await call(server, 'GET', '/metrics')).text).toMatch(/^campus_backup_newest_timestamp_seconds 0$/m);
    const taken = Date.UTC(2026, 10, 30, 2, 0, 0);
    const row = (id: string, backupTime: number) => ({ id, name: `${id}.tar.gz`, backup_time: backupTime, file_path: '/var/backups/campus/', addr: '127.0.0.1', retention_day: 30, size: 1000, remarks: '', created_at: backupTime + 5000 });
    await server.handle.db.insertInto('backup_logs').values([row('older', taken - 86_400_000), row('newest', taken)]).execute();
    expect((await call(server, 'GET', '/metrics')).text).toMatch(new RegExp(`^campus_backup_newest_timestamp_seconds ${taken / 1000}$`, 'm'));
  });

  it('passes promtool check metrics on a fresh server and after sign-ins, failures and a lock-out', async () => {
    const before = (await call(server, 'GET', '/metrics')).text;
    const fresh = lint(before);
    expect(fresh.output).toBe('');
    expect(fresh.status).toBe(0);

    let last;
    for (let attempt = 0; attempt < 5; attempt += 1) last = await call(server, 'POST', paths.webLogin, webLoginBody('sysadmin', 'wrong-password', '1001', await newCaptcha(server)));
    expect(last?.body.code).toBe(codes.accountLocked);
    const text = (await call(server, 'GET', '/metrics')).text;
    const lockouts = 'campus_lockouts_total{scope="account"}';
    const failures = 'campus_sign_in_failures_total{kind="password"}';
    expect(valueOf(text, lockouts)).toBe(valueOf(before, lockouts)! + 1);
    expect(valueOf(text, failures)).toBe(valueOf(before, failures)! + 5);
    const busy = lint(text);
    expect(busy.output).toBe('');
    expect(busy.status).toBe(0);
  });

  it('names no gauge like a counter: the active handles, requests and resources are by type, their sum in PromQL', async () => {
    const text = (await call(server, 'GET', '/metrics')).text;
    const gaugesEndingTotal = [...text.matchAll(/^# TYPE (\S+_total) gauge$/gm)].map((match) => match[1]);
    expect(gaugesEndingTotal).toEqual([]);
    expect(text).toMatch(/^# TYPE nodejs_active_handles gauge$/m);
    expect(text).toMatch(/^nodejs_active_handles\{type="\w+"\} [1-9]\d*$/m);
  });
});
