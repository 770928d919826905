// Seeds a gate deployment's database with many administrator login cards and system key cards for the card search
// benchmark (issue 14: 100,000 cards across 2 tenants). Run by bench/support/card-search.mjs with the server's own
// environment (DATABASE_URL or DATA_DIR), after the server has migrated and seeded the demo tenants.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { createServices } from '../../apps/server/src/services.ts';
import { cardSearchText } from '../../apps/server/src/modules/admin-login-card/admin-login-card-repository.ts';

const adminCards = Number(process.env.BENCH_CARDS ?? 100_000);
const keyCards = Number(process.env.BENCH_KEY_CARDS ?? 2_000);
const tenants = ['1001', '1002'];
const adminsPerTenant = 20;
// what a long-running installation holds: one card in use per administrator (the newest; the database allows no
// more, nor more than one system key card in use) and a long history of recycled, damaged, lost and frozen cards
const history = [30, 30, 60, 40, 30, 60, 40, 80, 30, 60];

const config = loadConfig();
const handle = openDatabase(config);
const services = createServices(handle, config);
try {
  const holders: { id: string; tenantCode: string; account: string }[] = [];
  for (const tenantCode of tenants) {
    for (let i = 0; i < adminsPerTenant; i++) {
      const account = `cardadmin${tenantCode}x${i}`;
      const id = await services.account.createUser({ tenantCode, account, name: `Card Administrator ${i}`, password: `Bench#${randomBytes(6).toString('hex')}`, isSystemAdmin: true });
      holders.push({ id, tenantCode, account });
    }
  }
  const start = Date.parse('2024-01-01T00:00:00Z');
  const batch = 500;
  await handle.db.transaction().execute(async (trx) => {
    for (let from = 0; from < adminCards; from += batch) {
      const rows = [];
      for (let n = from; n < Math.min(adminCards, from + batch); n++) {
        const holder = holders[n % holders.length]!;
        const at = start + n * 60_000;
        const card = { fixed_no: (0xb0000000 + n).toString(16).toUpperCase(), oprt_no: holder.account, card_num: 1000 + n };
        rows.push({
          ...card,
          id: `bench${n.toString(36)}`,
          tenant_code: holder.tenantCode,
          user_id: holder.id,
          kind_num: 11,
          search_text: cardSearchText(card),
          state: n >= adminCards - holders.length ? 20 : history[n % history.length]!,
          issue_seq: 1,
          pwd_hash: 'bench-no-password',
          is_super_admin: 0,
          created_at: at,
          updated_at: at,
        });
      }
      await trx.insertInto('admin_login_cards').values(rows).execute();
    }
    for (let from = 0; from < keyCards; from += batch) {
      const rows = [];
      for (let n = from; n < Math.min(keyCards, from + batch); n++) {
        const at = start + n * 3_600_000;
        rows.push({ id: `benchkey${n.toString(36)}`, kind_num: 11, fixed_no: (0xc0000000 + n).toString(16).toUpperCase(), state: n === keyCards - 1 ? 20 : history[n % history.length]!, issue_seq: 1, created_at: at, updated_at: at });
      }
      await trx.insertInto('system_key_cards').values(rows).execute();
    }
  });
  // what a real installation's autovacuum (PostgreSQL: statistics and the visibility map, which lets a count read
  // the index alone) or optimize (SQLite: statistics) keeps up to date
  await (handle.dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(handle.db);
  console.log(JSON.stringify({ adminCards, keyCards, holders: holders.map((h) => ({ id: h.id, tenantCode: h.tenantCode, account: h.account })) }));
} finally {
  await handle.close();
}
