import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { apiPaths } from '@campus/contracts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const postgres = databases.filter((kind) => kind === 'postgres');

describe.skipIf(postgres.length === 0)('PostgreSQL connections ended by the database', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer('postgres');
    token = await signIn(server, 'staff', 'Staff#2026');
  });
  afterAll(() => server.close());

  it('the server keeps answering after the database ends its connections (restart, failover, an administrator)', async () => {
    expect((await call(server, 'GET', apiPaths.userSettings, undefined, { token })).body.code).toBe(0);
    const admin = new pg.Client({ connectionString: server.config.databaseUrl! });
    await admin.connect();
    const ended = await admin.query(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await admin.end();
    expect(ended.rows.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await call(server, 'GET', apiPaths.userSettings, undefined, { token });
    expect(again.status).toBe(200);
    expect(again.body.code).toBe(0);
  });
});
