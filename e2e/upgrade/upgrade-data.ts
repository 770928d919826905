// Data made through the API as a customer would, and checked again after an upgrade or a rollback (issue 26 item 8).
// Uses only calls present in 3.5.7 and 3.6.0, and reads replies tolerantly (extra fields of a newer server ignored).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sm2, sm3 } from 'sm-crypto-v2';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import { setUpGateByApi } from '../support/gate-set-up-by-api.ts';

/** Password digests as the shell makes them: SHA-256, or SM3 on gate (national-crypto) deployments. */
export type DigestMode = 'sha256' | 'sm3';
const digest = (text: string, mode: DigestMode) => (mode === 'sm3' ? sm3(new TextEncoder().encode(text)).toLowerCase() : createHash('sha256').update(text).digest('hex'));

export interface Credentials { tenantCode: string; account: string; password: string }

export interface Expectation {
  digest: DigestMode;
  /** Every account that must still sign in with this password. */
  users: Credentials[];
  /** The licence in effect (absent when makeData was given none). */
  licence?: { code: unknown; beginTime: unknown; endTime: unknown; activateTime: unknown };
  /** Every row the first user lists, newest first (the test data stays far below one page of LOG_PAGE). */
  operationLog: { count: number; rows: LogRow[] };
  /** Gate deployments: the card tables and the super administrator's card sign-in. */
  cards?: { cardPassword: string; adminCards: CardRow[]; keyCards: CardRow[] };
}

/** The fields of a card table row both releases give. */
export interface CardRow { id: unknown; fixedNo: unknown; kindNum: unknown; state: unknown; oprtNo?: unknown }
const cardRow = (row: Record<string, unknown>): CardRow => ({ id: row.id, fixedNo: row.fixedNo, kindNum: row.kindNum, state: row.state, ...(row.oprtNo !== undefined ? { oprtNo: row.oprtNo } : {}) });

/** The fields of an operation log row both releases give. */
export interface LogRow { id: unknown; account: unknown; action: unknown; result: unknown; createdAt: unknown }
const logRow = (row: Record<string, unknown>): LogRow => ({ id: row.id, account: row.account, action: row.action, result: row.result, createdAt: row.createdAt });

export interface Difference { what: string; expected: unknown; got: unknown }

interface Envelope<T> { code: number; msg: string; data: T; recordCount?: number }

async function call<T>(baseUrl: string, path: string, body?: unknown, token?: string): Promise<Envelope<T>> {
  const headers: Record<string, string> = { origin: baseUrl };
  if (token) headers.token = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const reply = await fetch(`${baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await reply.text();
  try {
    return JSON.parse(text) as Envelope<T>;
  } catch {
    throw new Error(`${path}: HTTP ${reply.status}, not JSON: ${text.slice(0, 200)}`);
  }
}

async function ok<T>(what: string, reply: Promise<Envelope<T>>): Promise<T> {
  const envelope = await reply;
  if (envelope.code % 10 !== 0) throw new Error(`${what}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

export async function signIn(baseUrl: string, who: Credentials, mode: DigestMode): Promise<Envelope<{ loginInfo?: { token: string } }>> {
  return call(baseUrl, apiPaths.webLogin, { user: { account: who.account, password: digest(who.password, mode), tenantCode: who.tenantCode } });
}

async function token(baseUrl: string, who: Credentials, mode: DigestMode): Promise<string> {
  const data = await ok(`sign-in of ${who.account}`, signIn(baseUrl, who, mode));
  if (!data.loginInfo?.token) throw new Error(`sign-in of ${who.account}: no token in the reply`);
  return data.loginInfo.token;
}

async function changePassword(baseUrl: string, who: Credentials, next: string, mode: DigestMode): Promise<Credentials> {
  const session = await token(baseUrl, who, mode);
  const complexity = await ok('password complexity', call<{ sealKey: string }>(baseUrl, apiPaths.passwordComplexity));
  await ok(`password change of ${who.account}`, call(baseUrl, apiPaths.changePassword, {
    oprtPwd: digest(who.password, mode), oprtNewPwd: digest(next, mode), sealedNewPwd: sm2.doEncrypt(next, complexity.sealKey, 1),
  }, session));
  return { ...who, password: next };
}

async function currentLicence(baseUrl: string, session: string): Promise<Expectation['licence']> {
  const detail = await ok('licence in effect', call<Record<string, unknown> | null>(baseUrl, apiPaths.licenceCurrentDetail, {}, session));
  if (!detail) return undefined;
  return { code: detail.code, beginTime: detail.beginTime, endTime: detail.endTime, activateTime: detail.activateTime };
}

const LOG_PAGE = 500;
async function operationLog(baseUrl: string, session: string, endTime?: number): Promise<Expectation['operationLog']> {
  const reply = await call<Array<Record<string, unknown>>>(baseUrl, apiPaths.operationLogSearch, { page: { index: 1, size: LOG_PAGE }, ...(endTime !== undefined ? { startTime: 0, endTime } : {}) }, session);
  if (reply.code % 10 !== 0) throw new Error(`operation log search: ${reply.code} ${reply.msg}`);
  const count = reply.recordCount ?? reply.data.length;
  if (count > LOG_PAGE) throw new Error(`operation log search: ${count} rows, more than the checker reads (${LOG_PAGE})`);
  return { count, rows: reply.data.map(logRow) };
}

export interface MakeDataInput {
  baseUrl: string;
  /** The system administrator from the first start (one-time password). */
  admin: Credentials;
  /** A .lic file for this installation's customer number, signed by a trusted key (optional). */
  licenceFile?: string;
  /** Gate deployments (MJ_SYSTEM 21): the card issuer with the virtual reader (demo mother card for 10001). */
  gate?: { issuerUrl: string; cardPassword: string };
}

async function issuerCall<T>(issuerUrl: string, baseUrl: string, path: string, body: unknown): Promise<Envelope<T>> {
  const reply = await fetch(`${issuerUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', carddevicetoken: 'upgrade-check-device', origin: baseUrl }, body: JSON.stringify(body) });
  return (await reply.json()) as Envelope<T>;
}

async function placeCard(issuerUrl: string, fixedNo: string): Promise<void> {
  const reply = await fetch(`${issuerUrl}/reader/api/place`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fixedNo }) });
  if (!reply.ok) throw new Error(`reader place ${fixedNo}: HTTP ${reply.status} ${await reply.text()}`);
}

/** Signs in with the super administrator's card (DE000003) as the card login page does; the reply as it came. */
export async function cardSignIn(baseUrl: string, issuerUrl: string, cardPassword: string): Promise<Envelope<{ token?: string }>> {
  await placeCard(issuerUrl, 'DE000003');
  try {
    await issuerCall(issuerUrl, baseUrl, cardIssuerPaths.addIdentity, { cardDeviceToken: 'upgrade-check-device' });
    const gateway = await issuerCall(issuerUrl, baseUrl, cardIssuerPaths.setGateway, { gatewayAddr: baseUrl });
    if (gateway.code % 10 !== 0) return gateway as Envelope<{ token?: string }>;
    return await issuerCall<{ token?: string }>(issuerUrl, baseUrl, cardIssuerPaths.login, { cardKind: 11, oprtPwd: digest(cardPassword, 'sm3') });
  } finally {
    await placeCard(issuerUrl, 'DE000001');
  }
}

async function cardTables(baseUrl: string, session: string): Promise<{ adminCards: CardRow[]; keyCards: CardRow[] }> {
  const search = async (path: string) => {
    const reply = await call<Array<Record<string, unknown>>>(baseUrl, path, { page: { index: 1, size: 50 }, orderBys: [{ field: 'fixedNo', isAsc: true }] }, session);
    if (reply.code % 10 !== 0) throw new Error(`${path}: ${reply.code} ${reply.msg}`);
    return reply.data.map(cardRow);
  };
  return { adminCards: await search(apiPaths.adminCardSearch), keyCards: await search(apiPaths.keyCardSearch) };
}

/** Makes the data and returns what must hold after an upgrade. */
export async function makeData(input: MakeDataInput): Promise<Expectation> {
  const { baseUrl } = input;
  const mode: DigestMode = input.gate ? 'sm3' : 'sha256';
  // without a licence in effect only the licence pages answer, so the licence comes before the password change
  const first = await token(baseUrl, input.admin, mode);
  if (input.licenceFile) {
    const form = new FormData();
    form.append('files', new Blob([readFileSync(input.licenceFile)]), input.licenceFile.split('/').pop() ?? 'licence.lic');
    const reply = await fetch(`${baseUrl}${apiPaths.licenceUpload}`, { method: 'POST', headers: { token: first, origin: baseUrl }, body: form });
    const uploaded = (await reply.json()) as Envelope<Array<Record<string, unknown>>>;
    const result = uploaded.data?.[0] ?? {};
    if (uploaded.code % 10 !== 0 || result.ok !== true) throw new Error(`licence upload: ${uploaded.code} ${uploaded.msg} ${String(result.msg ?? '')}`);
    await ok('licence activation', call(baseUrl, apiPaths.licenceActivate, { id: result.id }, first));
  }
  const admin = await changePassword(baseUrl, input.admin, 'Upgrade#2026a', mode);
  const session = await token(baseUrl, admin, mode);
  let cards: Expectation['cards'];
  if (input.gate) {
    const { issuerUrl, cardPassword } = input.gate;
    const reader = { place: (fixedNo: string) => placeCard(issuerUrl, fixedNo), remove: () => Promise.resolve(), failNext: () => Promise.resolve() };
    await setUpGateByApi({ server: { baseURL: baseUrl, stop: () => Promise.resolve() }, issuerUrl, reader, stop: () => Promise.resolve() }, cardPassword);
    const signedIn = await cardSignIn(baseUrl, issuerUrl, cardPassword);
    if (signedIn.code % 10 !== 0 || !signedIn.data?.token) throw new Error(`card sign-in: ${signedIn.code} ${signedIn.msg}`);
    cards = { cardPassword, ...(await cardTables(baseUrl, signedIn.data.token)) };
  }
  // a few more sign-ins so the log holds more than the changes
  for (let i = 0; i < 3; i += 1) await token(baseUrl, admin, mode);
  return { digest: mode, users: [admin], licence: await currentLicence(baseUrl, session), operationLog: await operationLog(baseUrl, session), ...(cards ? { cards } : {}) };
}

/** Every way the server differs from the expectation; empty when all survived. */
export async function checkData(expectation: Expectation, baseUrl: string, issuerUrl?: string): Promise<Difference[]> {
  const differences: Difference[] = [];
  let session: string | undefined;
  for (const user of expectation.users) {
    const reply = await signIn(baseUrl, user, expectation.digest);
    const signedIn = reply.code % 10 === 0 && Boolean(reply.data?.loginInfo?.token);
    if (!signedIn) differences.push({ what: `sign-in of ${user.tenantCode}/${user.account}`, expected: 'signed in', got: `${reply.code} ${reply.msg}` });
    else session ??= reply.data.loginInfo?.token;
  }
  if (!session) {
    differences.push({ what: 'the rest of the checks', expected: 'a session of the first user', got: 'none (see sign-ins above)' });
    return differences;
  }
  const first = expectation.users[0];
  const licence = await currentLicence(baseUrl, session);
  if (JSON.stringify(licence) !== JSON.stringify(expectation.licence)) differences.push({ what: 'licence in effect', expected: expectation.licence ?? null, got: licence ?? null });
  // checkData's own sign-ins add rows: the log up to the newest row made must be the one made, row for row, except
  // that since 3.6.0 a system administrator also reads the installation-wide rows (no account: gate set-up, the
  // mother card, trusted issuers) that an older release kept out of every tenant's list
  const newestTime = expectation.operationLog.rows[0]?.createdAt;
  const now = await operationLog(baseUrl, session, typeof newestTime === 'number' ? newestTime : undefined);
  const madeIds = new Set(expectation.operationLog.rows.map((row) => row.id));
  const kept = now.rows.filter((row) => madeIds.has(row.id));
  const added = now.rows.filter((row) => !madeIds.has(row.id));
  if (JSON.stringify(kept) !== JSON.stringify(expectation.operationLog.rows)) differences.push({ what: `the operation log rows made (as ${first?.account})`, expected: expectation.operationLog.rows, got: kept });
  const unexplained = added.filter((row) => row.account !== '');
  if (unexplained.length > 0) differences.push({ what: 'operation log rows that were not there before', expected: [], got: unexplained });
  if (expectation.cards) {
    if (!issuerUrl) throw new Error('checkData: the expectation has cards, so it needs the card issuer URL');
    const signedIn = await cardSignIn(baseUrl, issuerUrl, expectation.cards.cardPassword);
    if (signedIn.code % 10 !== 0 || !signedIn.data?.token) {
      differences.push({ what: 'card sign-in of the super administrator card DE000003', expected: 'signed in', got: `${signedIn.code} ${signedIn.msg}` });
    } else {
      const tables = await cardTables(baseUrl, signedIn.data.token);
      if (JSON.stringify(tables.adminCards) !== JSON.stringify(expectation.cards.adminCards)) differences.push({ what: 'administrator login card table', expected: expectation.cards.adminCards, got: tables.adminCards });
      if (JSON.stringify(tables.keyCards) !== JSON.stringify(expectation.cards.keyCards)) differences.push({ what: 'system key card table', expected: expectation.cards.keyCards, got: tables.keyCards });
    }
  }
  return differences;
}

export function describeDifferences(differences: Difference[]): string {
  return differences.map((d) => `- ${d.what}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.got)}`).join('\n');
}
