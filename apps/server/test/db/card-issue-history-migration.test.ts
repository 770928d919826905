import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrations.ts';
import { databases, openFreshDatabase } from '../support/helpers.ts';

// Migration 0018 (issue 25, item 10): the card tables keep a row per issue. It runs over the cards an installation
// already has and keeps them as they are; afterwards a recycled number may be issued again as a new row, while
// the database still refuses a second live card of one number and a second card in use of one administrator.
describe.each(databases)('migration 0018: card issue history (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cleanUp: () => Promise<void>;
  const card = (id: string, fixedNo: string, state: number, issueSeq: number, userId = 'u1') => ({
    id,
    tenant_code: '1001',
    user_id: userId,
    oprt_no: userId,
    kind_num: 11,
    fixed_no: fixedNo,
    card_num: Number(id.slice(1)),
    state,
    issue_seq: issueSeq,
    pwd_hash: 'x',
    is_super_admin: 0,
    search_text: `${fixedNo} ${userId}`.toLowerCase(),
    created_at: 1000 + issueSeq,
    updated_at: 2000,
  });

  beforeAll(async () => {
    ({ handle, cleanUp } = await openFreshDatabase(kind));
    await migrateUpTo(handle.db, handle.dialect, '0017_change_stamps');
    const db = handle.db;
    await sql`insert into tenants (code, name_i18n, system_name_i18n, created_at) values ('1001', '{}', '{}', 1)`.execute(db);
    for (const id of ['u1', 'u2']) {
      await sql`insert into users (id, tenant_code, account, name, password_hash, digest_mode, language, utc_diff, created_at) values (${id}, '1001', ${id}, ${id}, 'x', 'sm3', 'en-US', 480, 1)`.execute(db);
    }
    await db.insertInto('admin_login_cards').values([card('c1', '04A00001', 30, 2), card('c2', '04A00002', 20, 1), card('c3', '04A00003', 40, 1, 'u2')]).execute();
    await db.insertInto('system_key_cards').values([
      { id: 'k1', kind_num: 11, fixed_no: '04B00001', state: 30, issue_seq: 1, created_at: 1, updated_at: 1 },
      { id: 'k2', kind_num: 11, fixed_no: '04B00002', state: 20, issue_seq: 1, created_at: 2, updated_at: 2 },
    ]).execute();
    await migrateToLatest(handle.db, handle.dialect);
  });
  afterAll(async () => {
    await cleanUp?.();
  });

  it('keeps every card as it was', async () => {
    const cards = await handle.db.selectFrom('admin_login_cards').selectAll().orderBy('id').execute();
    expect(cards.map((row) => ({ ...row, created_at: Number(row.created_at), updated_at: Number(row.updated_at) }))).toEqual([card('c1', '04A00001', 30, 2), card('c2', '04A00002', 20, 1), card('c3', '04A00003', 40, 1, 'u2')]);
    const keys = await handle.db.selectFrom('system_key_cards').select(['id', 'fixed_no', 'state', 'issue_seq']).orderBy('id').execute();
    expect(keys).toEqual([
      { id: 'k1', fixed_no: '04B00001', state: 30, issue_seq: 1 },
      { id: 'k2', fixed_no: '04B00002', state: 20, issue_seq: 1 },
    ]);
  });

  it('a recycled number is issued again as a new row; a second live row of a number, or a second card in use, is refused', async () => {
    const db = handle.db;
    await db.insertInto('admin_login_cards').values(card('c4', '04A00001', 20, 3, 'u2')).execute();
    expect(await db.selectFrom('admin_login_cards').select(['id', 'state', 'issue_seq']).where('fixed_no', '=', '04A00001').orderBy('issue_seq').execute()).toEqual([
      { id: 'c1', state: 30, issue_seq: 2 },
      { id: 'c4', state: 20, issue_seq: 3 },
    ]);
    // the same number live twice (the copy in use, another lost)
    await expect(db.insertInto('admin_login_cards').values(card('c5', '04A00003', 20, 2, 'u1')).execute()).rejects.toThrow();
    // a second card in use of u2 (c4 is in use)
    await expect(db.updateTable('admin_login_cards').set({ state: 20 }).where('id', '=', 'c3').execute()).rejects.toThrow();
    await db.insertInto('system_key_cards').values({ id: 'k3', kind_num: 11, fixed_no: '04B00001', state: 80, issue_seq: 2, created_at: 3, updated_at: 3 }).execute();
    await expect(db.insertInto('system_key_cards').values({ id: 'k4', kind_num: 11, fixed_no: '04B00001', state: 40, issue_seq: 3, created_at: 4, updated_at: 4 }).execute()).rejects.toThrow();
    await expect(db.updateTable('system_key_cards').set({ state: 20 }).where('id', '=', 'k3').execute()).rejects.toThrow();
  });
});
