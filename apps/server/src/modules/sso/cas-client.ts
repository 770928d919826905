import { timingSafeEqual } from 'node:crypto';
import { codes } from '@campus/contracts';
import type { CasProviderSettings, IdentityProviderTestResult, LanguageCode } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { CasRefusal } from './cas-refusal.ts';
import { child, readXml } from './cas-xml.ts';
import type { XmlElement } from './cas-xml.ts';
import type { ProtocolClient, ProviderForProtocol, ProviderLogout, RoundTrip, SignedInAtProvider } from './protocol.ts';
import { isAddressRefused, providerFetch } from './provider-fetch.ts';
import { ProviderNetworkPolicy, providerNetworksSetting } from '../../lib/outbound-addresses.ts';

export { CasRefusal } from './cas-refusal.ts';

// CAS 3.0 (the Apereo CAS protocol): the browser goes to <serverUrl>/login?service=<service>, comes back to the
// service with ?ticket=ST-…, and this server validates the ticket at <serverUrl>/p3/serviceValidate with the same
// service, byte for byte. The service is this server's CAS callback with the round trip's state in its query, so
// the callback finds its round trip; CAS single logout later POSTs a SAML LogoutRequest naming the ticket to it.

export interface CasClientDeps {
  /** Outbound HTTP (services.ts: providerFetch with SSO_PROVIDER_NETWORKS); providerFetch with no network opened otherwise. */
  fetch?: typeof fetch;
  /** How long the CAS server has to answer one call: 5 s unless told. */
  timeoutMs?: number;
}

/** The query parameter of the service URL that carries the round trip's state back to the callback. */
export const casStateParameter = 'state';

/** The most of a CAS answer read: a validation answer is a few KB even with many attributes. */
const maxAnswerBytes = 256 * 1024;

/** The CAS 3.0 error codes of an authenticationFailure (anything else is logged as it came, cut short). */
const casErrorCodes = ['INVALID_REQUEST', 'INVALID_TICKET_SPEC', 'UNAUTHORIZED_SERVICE_PROXY', 'INVALID_PROXY_CALLBACK', 'INVALID_TICKET', 'INVALID_SERVICE', 'INTERNAL_ERROR'];

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

function casSettings(provider: ProviderForProtocol): CasProviderSettings {
  if (provider.kind !== 'cas') throw new CasRefusal(codes.ssoProviderConfigInvalid, { status: 400, logDetail: `provider kind ${provider.kind} given to the CAS client`, values: { field: 'kind' } });
  return provider.settings;
}

/** The server URL without trailing slashes; https, or http on loopback only (a ticket must not cross a network in clear). */
function serverBase(settings: CasProviderSettings): string {
  let url: URL;
  try {
    url = new URL(settings.serverUrl);
  } catch {
    throw new CasRefusal(codes.ssoProviderConfigInvalid, { status: 400, logDetail: 'serverUrl is not a URL', values: { field: 'serverUrl' } });
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
  if (!secure || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new CasRefusal(codes.ssoProviderConfigInvalid, { status: 400, logDetail: 'serverUrl must be https (http on loopback only), without query, fragment or credentials', values: { field: 'serverUrl' } });
  }
  return url.href.replace(/\/+$/, '');
}

function endpoint(base: string, path: string, query: Record<string, string>): string {
  const url = new URL(`${base}/${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/** The service URL of a round trip: the same string at /login and at p3/serviceValidate. */
export function casServiceUrl(roundTrip: RoundTrip): string {
  const url = new URL(roundTrip.redirectUri);
  url.searchParams.set(casStateParameter, roundTrip.state);
  return url.href;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

const unreachable = (why: string) => new CasRefusal(codes.ssoProviderUnreachable, { status: 502, logDetail: why });
/** The CAS server's answer is not one CAS sends (502); a logout message posted to this server is not one (400). */
const invalid = (why: string) => new CasRefusal(codes.ssoResponseInvalid, { status: 502, logDetail: why });
const invalidMessage = (why: string) => new CasRefusal(codes.ssoResponseInvalid, { status: 400, logDetail: why });

type Texts = Record<LanguageCode, string>;

const testTexts = {
  loginAnswered: { 'en-US': 'The CAS login page answers ({status})', 'zh-CN': 'CAS 登录页面有应答（{status}）', 'zh-MO': 'CAS 登入頁面有應答（{status}）' },
  loginStatus: { 'en-US': 'The CAS login page answers with HTTP {status}: check the server URL', 'zh-CN': 'CAS 登录页面应答 HTTP {status}：请检查服务器地址', 'zh-MO': 'CAS 登入頁面應答 HTTP {status}：請檢查伺服器位址' },
  noAnswer: { 'en-US': 'No answer from {url} within {seconds} s', 'zh-CN': '{url} 在 {seconds} 秒内没有应答', 'zh-MO': '{url} 在 {seconds} 秒內沒有應答' },
  badUrl: { 'en-US': 'The server URL must be https (http only on this machine), without query or credentials', 'zh-CN': '服务器地址必须是 https（仅本机可用 http），且不带查询参数或凭据', 'zh-MO': '伺服器位址必須是 https（僅本機可用 http），且不帶查詢參數或憑證' },
  validationSpeaks: { 'en-US': 'p3/serviceValidate refuses a made-up ticket as CAS 3.0 does ({casCode})', 'zh-CN': 'p3/serviceValidate 按 CAS 3.0 拒绝了虚构的票据（{casCode}）', 'zh-MO': 'p3/serviceValidate 按 CAS 3.0 拒絕了虛構的票據（{casCode}）' },
  validationAccepted: { 'en-US': 'p3/serviceValidate accepted a made-up ticket: this is not a CAS server to trust', 'zh-CN': 'p3/serviceValidate 接受了虚构的票据：不能信任此 CAS 服务器', 'zh-MO': 'p3/serviceValidate 接受了虛構的票據：不能信任此 CAS 伺服器' },
  validationNotCas: { 'en-US': 'p3/serviceValidate did not answer a CAS 3.0 response: check the server URL (it ends before /login)', 'zh-CN': 'p3/serviceValidate 的应答不是 CAS 3.0 格式：请检查服务器地址（应止于 /login 之前）', 'zh-MO': 'p3/serviceValidate 的應答不是 CAS 3.0 格式：請檢查伺服器位址（應止於 /login 之前）' },
  validationStatus: { 'en-US': 'p3/serviceValidate answers with HTTP {status}', 'zh-CN': 'p3/serviceValidate 应答 HTTP {status}', 'zh-MO': 'p3/serviceValidate 應答 HTTP {status}' },
} satisfies Record<string, Texts>;

function say(texts: Texts, lang: LanguageCode, values: Record<string, string | number> = {}): string {
  return texts[lang].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The ProtocolClient of kind 'cas' (CAS 3.0, p3/serviceValidate). It talks to the CAS server only. */
export class CasClient implements ProtocolClient {
  readonly kind = 'cas' as const;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(deps: CasClientDeps = {}) {
    this.fetch = deps.fetch ?? providerFetch({ policy: new ProviderNetworkPolicy() });
    this.timeoutMs = deps.timeoutMs ?? 5000;
  }

  async authorizationUrl(provider: ProviderForProtocol, roundTrip: RoundTrip): Promise<string> {
    return endpoint(serverBase(casSettings(provider)), 'login', { service: casServiceUrl(roundTrip) });
  }

  async finish(provider: ProviderForProtocol, roundTrip: RoundTrip, callbackUrl: URL): Promise<SignedInAtProvider> {
    const settings = casSettings(provider);
    const base = serverBase(settings);
    const state = callbackUrl.searchParams.get(casStateParameter);
    if (state === null || !sameText(state, roundTrip.state)) throw new CasRefusal(codes.ssoStateInvalid, { status: 400, logDetail: 'the callback state is not the round trip\'s' });
    const tickets = callbackUrl.searchParams.getAll('ticket');
    const ticket = tickets[0];
    if (tickets.length !== 1 || ticket === undefined || ticket === '') throw new CasRefusal(codes.ssoTicketRejected, { status: 401, logDetail: 'the callback carries no service ticket (or several)' });
    if (ticket.length > 256 || !/^[\x21-\x7e]+$/.test(ticket)) throw new CasRefusal(codes.ssoTicketRejected, { status: 401, logDetail: 'the service ticket is not a CAS ticket' });

    const url = endpoint(base, 'p3/serviceValidate', { service: casServiceUrl(roundTrip), ticket });
    const { status, text } = await this.get(url);
    if (status >= 500) throw unreachable(`p3/serviceValidate answered HTTP ${status}`);
    const response = await readXml(text, 502);
    if (response.name !== 'serviceResponse') throw invalid(`p3/serviceValidate answered <${response.name.slice(0, 40)}>, not a CAS serviceResponse`);
    const failure = child(response, 'authenticationFailure');
    if (failure) {
      const code = failure.attributes.code ?? '';
      const known = casErrorCodes.includes(code) ? code : `unknown code ${JSON.stringify(code.slice(0, 40))}`;
      throw new CasRefusal(codes.ssoTicketRejected, { status: 401, logDetail: `CAS authenticationFailure ${known}` });
    }
    const success = child(response, 'authenticationSuccess');
    if (!success) throw invalid('the CAS serviceResponse holds neither authenticationSuccess nor authenticationFailure');
    const user = child(success, 'user')?.text ?? '';
    if (user === '') throw invalid('the CAS authenticationSuccess names no user');
    // a proxyGrantingTicket (IOU) in the answer is ignored: this server asks for none (no pgtUrl) and proxies nothing
    return { account: accountOf(success, user, settings.accountAttribute), subject: user, providerSession: ticket, idToken: null };
  }

  async logoutUrl(provider: ProviderForProtocol, _session: { idToken: string | null }, postLogoutRedirectUri: string): Promise<string | null> {
    return endpoint(serverBase(casSettings(provider)), 'logout', { service: postLogoutRedirectUri });
  }

  async readLogout(provider: ProviderForProtocol, form: Record<string, string>): Promise<ProviderLogout> {
    casSettings(provider);
    const message = form.logoutRequest;
    if (typeof message !== 'string' || message === '') throw invalidMessage('the single logout form carries no logoutRequest');
    if (message.length > maxAnswerBytes) throw invalidMessage('the logoutRequest is too long');
    const request = await readXml(message, 400);
    if (request.name !== 'LogoutRequest') throw invalidMessage(`the logoutRequest is <${request.name.slice(0, 40)}>, not a SAML LogoutRequest`);
    const sessionIndexes = request.children.filter((element) => element.name === 'SessionIndex');
    const providerSession = sessionIndexes[0]?.text ?? '';
    if (sessionIndexes.length !== 1 || providerSession === '') throw invalidMessage('the LogoutRequest names no single SessionIndex');
    return { providerSession };
  }

  /**
   * Two steps: 'discovery', the login page answers (CAS has no discovery document: its login page is how a server
   * is found); 'validation', p3/serviceValidate refuses a made-up ticket with a CAS 3.0 authenticationFailure.
   */
  async test(provider: ProviderForProtocol, lang: LanguageCode): Promise<IdentityProviderTestResult> {
    const steps: IdentityProviderTestResult['steps'] = [];
    let base: string;
    try {
      base = serverBase(casSettings(provider));
    } catch {
      steps.push({ step: 'discovery', ok: false, detail: say(testTexts.badUrl, lang) });
      return { ok: false, steps, clockSkewSeconds: null };
    }
    const seconds = this.timeoutMs / 1000;

    const loginUrl = `${base}/login`;
    try {
      const { status } = await this.get(loginUrl);
      const ok = status < 400;
      steps.push({ step: 'discovery', ok, detail: say(ok ? testTexts.loginAnswered : testTexts.loginStatus, lang, { status }) });
    } catch (error) {
      const refused = error instanceof AppError && error.code === codes.ssoProviderAddressRefused;
      steps.push({ step: 'discovery', ok: false, detail: refused ? error.messageIn(lang) : say(testTexts.noAnswer, lang, { url: loginUrl, seconds }) });
    }

    // a ticket no CAS server issued, for a service no CAS server knows: a CAS 3.0 server answers authenticationFailure
    const validateUrl = endpoint(base, 'p3/serviceValidate', { service: 'https://campus-shell.invalid/connection-test', ticket: 'ST-0-campus-connection-test' });
    try {
      const { status, text } = await this.get(validateUrl);
      if (status >= 500) {
        steps.push({ step: 'validation', ok: false, detail: say(testTexts.validationStatus, lang, { status }) });
      } else {
        const response = await readXml(text, 502);
        const failure = response.name === 'serviceResponse' ? child(response, 'authenticationFailure') : undefined;
        const success = response.name === 'serviceResponse' ? child(response, 'authenticationSuccess') : undefined;
        if (failure) steps.push({ step: 'validation', ok: true, detail: say(testTexts.validationSpeaks, lang, { casCode: (failure.attributes.code ?? '').slice(0, 40) }) });
        else if (success) steps.push({ step: 'validation', ok: false, detail: say(testTexts.validationAccepted, lang) });
        else steps.push({ step: 'validation', ok: false, detail: say(testTexts.validationNotCas, lang) });
      }
    } catch (error) {
      const timedOut = error instanceof AppError && error.code === codes.ssoProviderUnreachable;
      const refused = error instanceof AppError && error.code === codes.ssoProviderAddressRefused;
      steps.push({ step: 'validation', ok: false, detail: refused ? error.messageIn(lang) : timedOut ? say(testTexts.noAnswer, lang, { url: `${base}/p3/serviceValidate`, seconds }) : say(testTexts.validationNotCas, lang) });
    }
    return { ok: steps.every((step) => step.ok), steps, clockSkewSeconds: null };
  }

  /** One GET to the CAS server: no redirects followed, the answer read up to maxAnswerBytes within the timeout. */
  private async get(url: string): Promise<{ status: number; text: string }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' } });
    } catch (error) {
      if (isAddressRefused(error)) {
        throw new CasRefusal(codes.ssoProviderAddressRefused, { status: 400, logDetail: `the address is refused by policy (${providerNetworksSetting})`, values: { field: 'cas.serverUrl', setting: providerNetworksSetting } });
      }
      throw unreachable(`${new URL(url).pathname}: ${error instanceof Error ? error.name : 'no answer'}`);
    }
    try {
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (response.body) {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (size > maxAnswerBytes) {
            await response.body.cancel().catch(() => undefined);
            throw invalid(`the answer of ${new URL(url).pathname} is larger than ${maxAnswerBytes} bytes`);
          }
          chunks.push(chunk);
        }
      }
      return { status: response.status, text: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unreachable(`${new URL(url).pathname}: the answer broke off (${error instanceof Error ? error.name : 'error'})`);
    }
  }
}

/** The account the answer names: the CAS user, or the one value of the configured attribute. */
function accountOf(success: XmlElement, user: string, accountAttribute: string): string {
  if (accountAttribute === '') return user;
  const attributes = child(success, 'attributes');
  const values = new Set((attributes?.children ?? []).filter((element) => element.name === accountAttribute && element.text !== '').map((element) => element.text));
  const [value] = values;
  if (value === undefined) throw new CasRefusal(codes.ssoAccountClaimMissing, { status: 401, logDetail: `the CAS answer has no attribute ${accountAttribute}` });
  if (values.size > 1) throw new CasRefusal(codes.ssoAccountClaimMissing, { status: 401, logDetail: `the CAS attribute ${accountAttribute} has several values: it names no single account` });
  return value;
}
