import { apiPaths } from '@campus/contracts';
import type { App } from '../../src/http/types.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';

/** The address the administrator signs in from; fuzzed requests come from others, so their failures lock it out of nothing. */
const adminAddress = '127.0.0.1';

/**
 * A system administrator's session for the fuzzer, kept alive across requests that may end it: sign-out, a
 * wrong current password that locks the account, a change of password. After such a request the session is
 * checked and, when it has ended, the lock-out counters are cleared and the administrator signs in again.
 */
export class FuzzSession {
  token = '';
  signIns = 0;

  constructor(
    private readonly app: App,
    private readonly handle: DatabaseHandle,
    /** The deployment's password digest (SHA-256, or SM3 on a gate deployment). */
    private readonly digest: (password: string) => string,
    private readonly account = { name: 'sysadmin', password: 'Sysadmin#2026', tenantCode: '1001' },
  ) {}

  async signIn(): Promise<void> {
    await this.handle.db.deleteFrom('login_failures').execute();
    const reply = await this.app.inject({
      method: 'POST',
      url: apiPaths.webLogin,
      remoteAddress: adminAddress,
      payload: { user: { account: this.account.name, password: this.digest(this.account.password), tenantCode: this.account.tenantCode } },
    });
    const body = reply.json<{ code: number; msg: string; data: { loginInfo: { token: string } } }>();
    if (body.code !== 0) throw new Error(`the fuzzer's sign-in failed: ${body.code} ${body.msg}`);
    this.token = body.data.loginInfo.token;
    this.signIns += 1;
  }

  /** Signs in again when the session no longer answers. */
  async keepAlive(): Promise<void> {
    const reply = await this.app.inject({ method: 'GET', url: apiPaths.userDetail, headers: { token: this.token }, remoteAddress: adminAddress });
    if (reply.json<{ code: number }>().code !== 0) await this.signIn();
  }
}
