import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// The layer order of apps/server/src (DESIGN §3, eslint.config.js): each rule must fire on a bad import placed in
// its layer, or the lint would stop guarding the order without anyone noticing. Each snippet is linted as if it
// were the file at `path`, so its relative imports resolve against the real tree.
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const src = 'apps/server/src';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function layerErrors(path: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}${src}/${path}` });
  return result!.messages
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'import-x/no-cycle')
    .map(({ ruleId, message }) => ({ ruleId, message }));
}

describe('server layers (eslint.config.js)', () => {
  it('http/ imports no module', async () => {
    const errors = await layerErrors('http/types.ts', "import type { SessionRow } from '../modules/sessions/auth-repository.ts';\nexport type S = SessionRow;\n");
    expect(errors).toEqual([expect.objectContaining({ ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining('import no module') })]);
  });

  it('a primitive module imports no area', async () => {
    const errors = await layerErrors('modules/card-primitives/card-search.ts', "import { OperationLogRepository } from '../operation-log/operation-log-repository.ts';\nexport const R = OperationLogRepository;\n");
    expect(errors).toEqual([expect.objectContaining({ ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining('modules/card-primitives is a primitive') })]);
  });

  it('an area imports no area listed after it, even for a type', async () => {
    const errors = await layerErrors('modules/account/operator-password.ts', "import type { LoginService } from '../auth/login-service.ts';\nexport type L = LoginService;\n");
    expect(errors).toEqual([expect.objectContaining({ ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining('modules/account imports only') })]);
  });

  it('an area imports no composing module', async () => {
    const errors = await layerErrors('modules/system-key-card/key-card-log.ts', "import { registerCardTableRoutes } from '../card-management/card-table-routes.ts';\nexport const r = registerCardTableRoutes;\n");
    expect(errors).toEqual([expect.objectContaining({ ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining('modules/system-key-card imports only') })]);
  });

  it('an area imports a primitive and the areas listed before it', async () => {
    const code = [
      "import { PreparedCardWrites } from '../card-primitives/prepared-card-writes.ts';",
      "import { GmAccountService } from '../gm-account/gm-account-service.ts';",
      "import type { AccountService } from '../account/account-service.ts';",
      'export const parts = [PreparedCardWrites, GmAccountService];',
      'export type A = AccountService;',
      '',
    ].join('\n');
    expect(await layerErrors('modules/admin-login-card/admin-login-card-routes.ts', code)).toEqual([]);
  });

  it('nothing below the top imports services.ts or app.ts', async () => {
    const errors = await layerErrors('modules/card-management/card-state-routes.ts', "import { buildApp } from '../../app.ts';\nexport const b = buildApp;\n");
    // (app.ts imports the routes, so this also closes a cycle)
    expect(errors).toContainEqual(expect.objectContaining({ ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining('Only the top') }));
  });

  it('cli/ touches no table: no query builder naming one, no raw SQL, no kysely value import', async () => {
    const code = [
      "import { sql } from 'kysely';",
      "import type { Kysely } from 'kysely';",
      "import type { DB } from '../db/schema.ts';",
      'export async function bad(db: Kysely<DB>) {',
      "  await db.deleteFrom('sessions').execute();",
      "  await db.selectFrom('backup_logs').select('id').execute();",
      '  await sql`drop schema public cascade`.execute(db);',
      '}',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: `${repoRoot}${src}/cli/campus.ts` });
    const refused = result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax');
    // the value import, the two builders and the tagged SQL; the type import is fine
    expect(refused.map((m) => m.line)).toEqual([1, 5, 6, 7]);
    expect(refused[0]!.message).toContain('cli/ does not touch tables');
    // a service that owns the table may
    const [service] = await eslint.lintText(code, { filePath: `${repoRoot}${src}/modules/backup/restore-service.ts` });
    expect(service!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')).toEqual([]);
  });

  it('the files of one module do not import each other in a circle', async () => {
    // admin-login-card-service.ts imports admin-card-lifecycle.ts; the reverse would close a circle
    const errors = await layerErrors('modules/admin-login-card/admin-card-lifecycle.ts', "import { AdminLoginCardService } from './admin-login-card-service.ts';\nexport const s = AdminLoginCardService;\n");
    expect(errors).toEqual([expect.objectContaining({ ruleId: 'import-x/no-cycle' })]);
  });
});
