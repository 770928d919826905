import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { AdminLoginCardRepository, cardSearchText } from '../../src/modules/admin-login-card/admin-login-card-repository.ts';
import type { CardSearch } from '../../src/modules/card-primitives/card-search.ts';
import { databases, freshDatabase, tempDir } from '../support/helpers.ts';

// A text search reads its page one of two ways (few matches: from the ids of all its matches; many: in the page's
// order). Both must answer the same page, in every order, and only the tenant's cards.
describe.each(databases)('administrator card search by text, both ways (%s)', (kind) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let repo: AdminLoginCardRepository;

  beforeAll(async () => {
    const dir = tempDir();
    const fresh = await freshDatabase(kind, dir);
    drop = fresh.drop;
    handle = openDatabase({ databaseUrl: fresh.url, sqliteFile: path.join(dir, 'campus.db') });
    await migrateToLatest(handle.db, handle.dialect);
    for (const code of ['1001', '1002']) await handle.db.insertInto('tenants').values({ code, name_i18n: '{}', system_name_i18n: '{}', created_at: 0 }).execute();
    await handle.db.insertInto('users').values({ id: 'holder', tenant_code: '1001', account: 'holder', name: 'Holder', password_hash: 'x', digest_mode: 'sm3', is_system_admin: 1, is_disabled: 0, is_first_login: 0, language: 'en-US', utc_diff: 0, created_at: 0 }).execute();
    // 18 of tenant 1001's cards match 'gatekeeper'; tenant 1002 holds some that match too
    const rows = [];
    for (let n = 0; n < 60; n++) {
      const card = { fixed_no: (0xa0000000 + n * 7).toString(16).toUpperCase(), oprt_no: n % 3 === 0 ? `gatekeeper${n}` : `porter${n}`, card_num: 500 - n };
      rows.push({ ...card, id: `card${n}`, tenant_code: n % 10 === 9 ? '1002' : '1001', user_id: 'holder', kind_num: 11, search_text: cardSearchText(card), state: [30, 40, 60, 80][n % 4]!, issue_seq: 1, pwd_hash: 'x', is_super_admin: 0, created_at: 1_000_000 + ((n * 37) % 60) * 1000, updated_at: 0 });
    }
    await handle.db.insertInto('admin_login_cards').values(rows).execute();
    repo = new AdminLoginCardRepository(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  const orders: CardSearch['order'][] = [
    [{ column: 'created_at', asc: false }],
    [{ column: 'card_num', asc: true }],
    [{ column: 'state', asc: true }, { column: 'fixed_no', asc: false }],
  ];

  it.each(orders)('the same page either way, ordered by %o', async (...order) => {
    for (const offset of [0, 5, 15]) {
      const search: CardSearch = { like: 'gatekeeper', order, offset, limit: 5 };
      const total = await repo.count('1001', search);
      expect(total).toBe(18);
      const inPageOrder = await repo.page('1001', search);
      const matches = await repo.matchingIds('1001', search, 1000);
      expect(matches).toHaveLength(18);
      const matchesFirst = await repo.page('1001', search, matches);
      expect(matchesFirst.map((c) => c.id)).toEqual(inPageOrder.map((c) => c.id));
      expect(inPageOrder.length).toBe(Math.min(5, total - offset));
      expect(inPageOrder.every((c) => c.tenant_code === '1001' && c.oprt_no.startsWith('gatekeeper'))).toBe(true);
      expect(await repo.search('1001', search)).toEqual({ cards: inPageOrder, total: 18 });
    }
  });
});
