import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import { escapeFilterValue } from '../../src/modules/auth/ldap-directory.ts';
import type { LdapClientLike } from '../../src/modules/auth/ldap-directory.ts';
import { freePort } from '../support/free-port.ts';
import { call, counts, databases, tempDir, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const slapdBin = '/usr/sbin/slapd';
const suffix = 'dc=example,dc=com';
const rootDn = `cn=admin,${suffix}`;
const rootPw = 'adminpw';

async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slapd did not listen on ${port}`);
}

interface Slapd {
  url: string;
  dir: string;
  stop: () => void;
}

/** Starts a throw-away slapd on a free loopback port. */
async function startSlapd(): Promise<Slapd> {
  if (!fs.existsSync(slapdBin)) throw new Error('slapd is missing: run apt-get install -y slapd ldap-utils');
  const dir = tempDir('campus-slapd-');
  fs.mkdirSync(path.join(dir, 'db'));
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'include /etc/ldap/schema/nis.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      'database mdb',
      'maxsize 104857600',
      `suffix "${suffix}"`,
      `rootdn "${rootDn}"`,
      `rootpw ${rootPw}`,
      `directory ${dir}/db`,
      '',
    ].join('\n'),
  );
  const url = `ldap://127.0.0.1:${port}`;
  execFileSync(slapdBin, ['-f', path.join(dir, 'slapd.conf'), '-h', `${url}/`], { stdio: 'pipe' });
  await waitForPort(port);
  const stop = () => {
    const pidFile = path.join(dir, 'slapd.pid');
    if (fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const end = Date.now() + 5000;
      while (Date.now() < end) {
        try {
          process.kill(pid, 0);
        } catch {
          break;
        }
        execFileSync('sleep', ['0.1']);
      }
    }
  };
  // Load the entries as the rootdn.
  const admin = new Client({ url });
  await admin.bind(rootDn, rootPw);
  await admin.add(suffix, { objectClass: ['dcObject', 'organization'], dc: 'example', o: 'Example' });
  await admin.add(`ou=people,${suffix}`, { objectClass: 'organizationalUnit', ou: 'people' });
  const person = (uid: string, password: string) =>
    admin.add(`uid=${uid},ou=people,${suffix}`, { objectClass: 'inetOrgPerson', uid, cn: uid, sn: uid, userPassword: password });
  await person('staff', 'Dir#Staff2026');
  await person('multi', 'Dir#Multi2026');
  await person('dironly', 'Dir#Only2026');
  await admin.unbind();
  return { url, dir, stop };
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('RFC 4515 filter escaping', () => {
  it('escapes the characters that could change a filter', () => {
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('a\\b\u0000')).toBe('a\\5cb\\00');
    expect(escapeFilterValue('张三')).toBe('\\e5\\bc\\a0\\e4\\b8\\89');
  });
});

describe.each(databases)('LDAP sign-in against a real slapd (%s)', (kind) => {
  let slapd: Slapd;
  let server: TestServer;
  const binds: { dn: string; password: string }[] = [];
  let clientsMade = 0;

  beforeAll(async () => {
    slapd = await startSlapd();
    server = await startServer(kind, {
      env: { LDAP_URL: slapd.url, LDAP_BIND_DN: rootDn, LDAP_BIND_PASSWORD: rootPw, LDAP_BASE_DN: `ou=people,${suffix}` },
      // The real ldapts client, watched: every bind is recorded.
      ldapClientFactory: (url) => {
        clientsMade += 1;
        const client = new Client({ url, timeout: 5000, connectTimeout: 5000 });
        const watched: LdapClientLike = {
          bind: async (dn, password) => {
            binds.push({ dn, password });
            await client.bind(dn, password);
          },
          search: (base, options) => client.search(base, options),
          unbind: () => client.unbind(),
        };
        return watched;
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    slapd?.stop();
    if (slapd) fs.rmSync(slapd.dir, { recursive: true, force: true });
  });

  const ldapLogin = (account: string, password: string, tenantCode = '1001', language = 'en-US') =>
    call<{ loginInfo: { token: string; tenantCode: string }; remainingAttempts?: number }>(server, 'POST', apiPaths.ldapLogin, { account, password, tenantCode }, { language });

  it('the directory password signs in with login type 2 and the session works', async () => {
    const reply = await ldapLogin('staff', b64('Dir#Staff2026'));
    expect(reply.body.code).toBe(0);
    const token = reply.body.data.loginInfo.token;
    const user = await call<{ loginType: number; code: string }>(server, 'GET', apiPaths.userDetail, undefined, { token });
    expect(user.body.data).toMatchObject({ loginType: 2, code: 'staff' });
    const menus = await call<{ menuBaseList: { appNo: string }[] }>(server, 'GET', apiPaths.menus, undefined, { token });
    expect(menus.body.data.menuBaseList.map((s) => s.appNo)).toEqual(['qy', 'kq']);
    expect(binds.some((b) => b.dn === `uid=staff,ou=people,${suffix}`)).toBe(true);
    const settings = await call<{ openLdap: boolean }>(server, 'GET', apiPaths.tenantSettings);
    expect(settings.body.data.openLdap).toBe(true);
  });

  it('a wrong password answers accountOrPasswordWrong and counts toward the lock-out', async () => {
    const reply = await ldapLogin('multi', b64('Not-the-password1'), '1002');
    expect(reply.body.code).toBe(codes.accountOrPasswordWrong);
    expect(reply.body.msg).toBe('Wrong account or password');
    expect(reply.body.data.remainingAttempts).toBe(4);
    const row = await server.handle.db.selectFrom('login_failures').selectAll().where('scope', '=', 'account').where('key', '=', '1002|multi').executeTakeFirst();
    expect(row?.failures).toBe(1);
    const ok = await ldapLogin('multi', b64('Dir#Multi2026'), '1002');
    expect(ok.body.code).toBe(0);
  });

  it('an empty password is refused before any bind', async () => {
    const bindsBefore = binds.length;
    const clientsBefore = clientsMade;
    const before = await counts(server);
    for (const empty of ['', 'A', '=']) {
      const reply = await ldapLogin('staff', empty, '1001', 'zh-MO');
      expect(reply.status).toBe(400);
      // in the caller's language, as every refusal (it was English whatever the language)
      expect(reply.body).toEqual({ code: codes.badRequest, msg: `${codeMessage(codes.badRequest, 'zh-MO')}: body/password must NOT be empty`, data: null });
    }
    expect(binds.length).toBe(bindsBefore);
    expect(clientsMade).toBe(clientsBefore);
    expect(binds.every((b) => b.password.length > 0)).toBe(true);
    expect(await counts(server)).toEqual(before);
  });

  it('filter injection matches nobody', async () => {
    for (const account of ['*)(uid=*', '*', 'staff)(|(uid=*', 's*']) {
      const reply = await ldapLogin(account, b64('Dir#Staff2026'));
      expect([account, reply.body.code]).toEqual([account, codes.accountOrPasswordWrong]);
    }
    expect(binds.some((b) => b.password === 'Dir#Staff2026' && b.dn !== `uid=staff,ou=people,${suffix}`)).toBe(false);
  });

  it('a directory user without a local account gets ldapNoLocalAccount', async () => {
    const reply = await ldapLogin('dironly', b64('Dir#Only2026'));
    expect(reply.body.code).toBe(codes.ldapNoLocalAccount);
    expect(reply.body.msg).toBe('This directory account has no account in the system, please contact the administrator');
    expect((await counts(server)).sessions).toBeGreaterThan(0);
    const sessions = await server.handle.db.selectFrom('sessions').selectAll().where('account', '=', 'dironly').execute();
    expect(sessions).toEqual([]);
  });

  it('with slapd stopped the answer is ldapUnavailable', async () => {
    slapd.stop();
    const reply = await ldapLogin('staff', b64('Dir#Staff2026'));
    expect(reply.body.code).toBe(codes.ldapUnavailable);
    expect(reply.body.msg).toBe('The LDAP directory cannot be reached, please try again later');
  });
});

describe('LDAP not configured', () => {
  it('answers ldapDisabled', async () => {
    const server = await startServer('sqlite');
    try {
      const reply = await call(server, 'POST', apiPaths.ldapLogin, { account: 'staff', password: b64('x'), tenantCode: '1001' }, { language: 'en-US' });
      expect(reply.body).toEqual({ code: codes.ldapDisabled, msg: 'LDAP sign-in is not enabled', data: null });
    } finally {
      await server.close();
    }
  });
});
