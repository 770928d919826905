import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { describeDatabase } from '../../src/config.ts';
import { call, databases, otherAddress, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

interface Failing {
  status: string;
  failing: { check: string; problem: string; where?: string }[];
}

/** Issue 46 item 12: /readyz tells anyone which check failed, and only loopback and METRICS_ALLOW where. */
describe.each(databases)('/readyz detail by caller (%s)', (kind) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const direct = otherAddress();

  /** The newest migration taken off the record: the migrations check fails, naming the database. */
  async function unapplyNewest(on: TestServer): Promise<void> {
    const newest = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(on.handle.db);
    await sql`delete from kysely_migration where name = ${newest.rows[0]?.name ?? ''}`.execute(on.handle.db);
  }
  const readyz = async (at: string) => {
    const port = new URL(server!.url).port;
    const reply = await call({ url: `http://${at}:${port}` }, 'GET', '/readyz');
    return { status: reply.status, text: reply.text, body: JSON.parse(reply.text) as Failing };
  };

  it('a caller from elsewhere hears which check failed, never the database, its user or a path; loopback hears all', async () => {
    server = await startServer(kind, { network: { listen: '0.0.0.0', callAt: direct } });
    const where = describeDatabase(server.config);
    await unapplyNewest(server);
    const outside = await readyz(direct);
    expect(outside.status).toBe(503);
    expect(outside.body).toEqual({ status: 'unavailable', failing: [{ check: 'migrations', problem: 'not applied' }] });
    expect(outside.text).not.toContain(where);
    expect(outside.text).not.toContain(server.config.dataDir);
    if (server.config.databaseUrl) expect(outside.text).not.toContain(new URL(server.config.databaseUrl).host);

    const local = await readyz('127.0.0.1');
    expect(local.status).toBe(503);
    expect(local.body.failing).toEqual([{ check: 'migrations', problem: expect.stringMatching(/^not applied yet: \d{4}_/), where }]);
  });

  it('a data folder that cannot be written: the path to METRICS_ALLOW callers only', async () => {
    server = await startServer(kind, { network: { listen: '0.0.0.0', callAt: direct }, env: { METRICS_ALLOW: `${direct}/32` } });
    fs.rmSync(server.config.dataDir, { recursive: true, force: true });
    const allowed = await readyz(direct);
    expect(allowed.status).toBe(503);
    expect(allowed.body.failing).toEqual([{ check: 'dataDir', problem: expect.stringContaining('not writable: '), where: server.config.dataDir }]);
  });

  it('outside METRICS_ALLOW: the data folder check named, not its path', async () => {
    server = await startServer(kind, { network: { listen: '0.0.0.0', callAt: direct }, env: { METRICS_ALLOW: '10.9.9.9' } });
    fs.rmSync(server.config.dataDir, { recursive: true, force: true });
    const outside = await readyz(direct);
    expect(outside.body).toEqual({ status: 'unavailable', failing: [{ check: 'dataDir', problem: 'not writable' }] });
    expect(outside.text).not.toContain(server.config.dataDir);
  });
});
