import type { DatabaseHandle } from '../../src/db/database.ts';

/**
 * Values of the installation under test, by the field names requests carry them in: the fuzzer's valid requests
 * name real cards, users, accounts and tenants now and then, so that they get past "not found" into what the
 * routes do with a real row. Read once the installation is set up.
 */
export type KnownValues = Map<string, readonly string[]>;

export async function readKnownValues(handle: DatabaseHandle, into: KnownValues): Promise<void> {
  const db = handle.db;
  const [users, tenants, adminCards, keyCards, licences, systems] = await Promise.all([
    db.selectFrom('users').select(['id', 'account']).execute(),
    db.selectFrom('tenants').select('code').execute(),
    db.selectFrom('admin_login_cards').select(['id', 'fixed_no']).execute(),
    db.selectFrom('system_key_cards').select(['id', 'fixed_no']).execute(),
    db.selectFrom('licences').select(['id', 'code']).execute(),
    db.selectFrom('menu_systems').select('app_no').execute(),
  ]);
  const cardIds = [...adminCards, ...keyCards].map((card) => card.id);
  into.set('id', [...cardIds, ...licences.map((l) => l.id)]);
  into.set('ids', cardIds);
  into.set('oprtId', users.map((u) => u.id));
  into.set('account', users.map((u) => u.account));
  into.set('tenantCode', tenants.map((t) => t.code));
  into.set('fixedNo', [...adminCards, ...keyCards].map((card) => card.fixed_no));
  into.set('code', licences.map((l) => l.code));
  into.set('appNo', systems.map((s) => s.app_no));
}

/**
 * `value` with some of its fields replaced by known values of the same name (an array field by an array of
 * them); `picks` are the random choices, drawn by fast-check so that a seed replays them.
 */
export function withKnownValues(value: unknown, known: KnownValues, picks: readonly number[]): unknown {
  let next = 0;
  const pick = () => picks[next++ % picks.length] ?? 0;
  const salt = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(salt);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([key, field]) => {
        const choices = known.get(key);
        if (!choices?.length || pick() % 2 === 0) return [key, salt(field)];
        const one = () => choices[pick() % choices.length];
        return [key, Array.isArray(field) ? field.map(one) : one()];
      }),
    );
  };
  return salt(value);
}
