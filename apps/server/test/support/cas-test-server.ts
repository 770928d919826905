import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { freePort } from './free-port.ts';

/**
 * A CAS 3.0 server on loopback for tests: no CAS server installs from this machine's registries, so this one plays
 * the protocol's documented answers (the Apereo CAS protocol, version 3.0), written from its description.
 *
 *   const cas = await startCasTestServer({ users: { alice: { password: 'pw', attributes: { uid: 'alice' } } } });
 *   provider settings: { serverUrl: cas.serverUrl, accountAttribute: 'uid' }       // serverUrl ends in /cas
 *   ...
 *   await cas.close();
 *
 * - GET  {serverUrl}/login?service=S   the login form (fields `username`, `password`, button "Sign in"); with the
 *                                      browser's CAS session (cookie CASTGC) it redirects to S at once
 * - POST {serverUrl}/login?service=S   checks the user, starts the CAS session and redirects to S?ticket=ST-…
 *                                      (or S&ticket=ST-… when S has a query); a wrong password answers the form, 401
 * - GET  {serverUrl}/p3/serviceValidate?service=S&ticket=T   authenticationSuccess with the user and attributes;
 *                                      authenticationFailure INVALID_REQUEST (a parameter missing), INVALID_TICKET
 *                                      (unknown or already validated: a ticket is valid once), INVALID_SERVICE (T was
 *                                      issued for another service; T is spent too). See `validationAnswer` for the
 *                                      proxy-granting ticket and the hostile external-entity answers.
 * - GET  {serverUrl}/logout?service=S  ends the browser's CAS session, sends single logout to the service of every
 *                                      ticket issued in it (as a CAS server does), then redirects to S (or a page)
 *
 * Everything here is for tests only: passwords in clear, no TLS, no ticket expiry.
 */

export interface CasTestUser {
  password: string;
  /** Released with every successful validation, a list for a multi-valued attribute. Names must be XML names. */
  attributes?: Record<string, string | string[]>;
}

/**
 * How p3/serviceValidate answers a ticket that checks out:
 * - 'protocol': authenticationSuccess with user and attributes;
 * - 'withProxyGrantingTicket': the same with a <cas:proxyGrantingTicket> IOU (as when a pgtUrl was honoured);
 * - 'externalEntity': a document with a DOCTYPE declaring an external entity (SYSTEM `externalEntityTarget`) that
 *   the user's name refers to: whatever the ticket, what a hostile or broken server might send.
 */
export type CasValidationAnswer = 'protocol' | 'withProxyGrantingTicket' | 'externalEntity';

export interface CasValidation {
  service: string;
  ticket: string;
  /** 'success' or the authenticationFailure code answered ('externalEntity' for that answer). */
  answer: string;
}

export interface CasTestServer {
  /** The CAS server URL to configure, e.g. http://127.0.0.1:41234/cas (no trailing slash). */
  readonly serverUrl: string;
  validationAnswer: CasValidationAnswer;
  /** The SYSTEM identifier of the 'externalEntity' answer: a file: URL or an http: URL. */
  externalEntityTarget: string;
  /** Every p3/serviceValidate call, in order. */
  readonly validations: CasValidation[];
  /** Every /logout call, with its service parameter (null without). */
  readonly logouts: { service: string | null }[];
  /** Every single logout this server sent from /logout: where, for which ticket, and the answer's status (0: none). */
  readonly singleLogouts: { url: string; ticket: string; status: number }[];
  addUser(name: string, user: CasTestUser): void;
  /** A service ticket for `user` and `service`, as /login would issue after the form (for tests without a browser). */
  issueTicket(service: string, user: string): string;
  close(): Promise<void>;
}

export interface CasTestServerOptions {
  users?: Record<string, CasTestUser>;
}

const casNamespace = 'http://www.yale.edu/tp/cas';
const sessionCookie = 'CASTGC';

export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const htmlEscape = xmlEscape;

function token(prefix: string, counter: number): string {
  return `${prefix}-${counter}-${randomBytes(15).toString('base64url')}`;
}

/** The service with the ticket appended, as CAS redirects: `?ticket=` or `&ticket=`. */
function withTicket(service: string, ticket: string): string {
  return `${service}${service.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket)}`;
}

function serviceResponse(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<cas:serviceResponse xmlns:cas="${casNamespace}">\n${body}\n</cas:serviceResponse>\n`;
}

function failureXml(code: string, description: string): string {
  return serviceResponse(`  <cas:authenticationFailure code="${code}">\n    ${xmlEscape(description)}\n  </cas:authenticationFailure>`);
}

function successXml(user: string, attributes: Record<string, string | string[]>, proxyGrantingTicket: string | null): string {
  const lines = [`  <cas:authenticationSuccess>`, `    <cas:user>${xmlEscape(user)}</cas:user>`, `    <cas:attributes>`];
  lines.push(`      <cas:authenticationDate>${new Date().toISOString()}</cas:authenticationDate>`);
  lines.push(`      <cas:longTermAuthenticationRequestTokenUsed>false</cas:longTermAuthenticationRequestTokenUsed>`);
  lines.push(`      <cas:isFromNewLogin>true</cas:isFromNewLogin>`);
  for (const [name, value] of Object.entries(attributes)) {
    if (!/^[A-Za-z_][\w.-]*$/.test(name)) throw new Error(`cas-test-server: attribute name ${name} is not an XML name`);
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`      <cas:${name}>${xmlEscape(one)}</cas:${name}>`);
  }
  lines.push(`    </cas:attributes>`);
  if (proxyGrantingTicket) lines.push(`    <cas:proxyGrantingTicket>${proxyGrantingTicket}</cas:proxyGrantingTicket>`);
  lines.push(`  </cas:authenticationSuccess>`);
  return serviceResponse(lines.join('\n'));
}

function externalEntityXml(target: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE cas:serviceResponse [\n  <!ENTITY xxe SYSTEM "${xmlEscape(target)}">\n]>\n` +
    `<cas:serviceResponse xmlns:cas="${casNamespace}">\n  <cas:authenticationSuccess>\n    <cas:user>&xxe;</cas:user>\n` +
    `    <cas:attributes><cas:uid>&xxe;</cas:uid></cas:attributes>\n  </cas:authenticationSuccess>\n</cas:serviceResponse>\n`
  );
}

/**
 * The SAML 2 LogoutRequest of CAS single logout, naming the service ticket as its SessionIndex. With
 * `externalEntityTarget`, the same with a DOCTYPE whose external entity the SessionIndex refers to (hostile).
 */
export function logoutRequestXml(ticket: string, options: { externalEntityTarget?: string } = {}): string {
  const id = token('LR', 0);
  const doctype = options.externalEntityTarget === undefined ? '' : `<!DOCTYPE samlp:LogoutRequest [ <!ENTITY xxe SYSTEM "${xmlEscape(options.externalEntityTarget)}"> ]>\n`;
  const sessionIndex = options.externalEntityTarget === undefined ? xmlEscape(ticket) : '&xxe;';
  return (
    doctype +
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
    `<saml:NameID>@NOT_USED@</saml:NameID><samlp:SessionIndex>${sessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>`
  );
}

/**
 * Sends CAS single logout to `url` (a service URL: this server's CAS callback with its state) as a CAS server does:
 * a form POST whose field `logoutRequest` is the LogoutRequest XML naming `ticket`. Resolves with the HTTP status.
 */
export async function sendSingleLogout(url: string, ticket: string, options: { externalEntityTarget?: string } = {}): Promise<number> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logoutRequest: logoutRequestXml(ticket, options) }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(5000),
  });
  await reply.arrayBuffer();
  return reply.status;
}

function loginPage(service: string | null, message: string): string {
  const action = `login${service === null ? '' : `?service=${encodeURIComponent(service)}`}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CAS test server</title></head><body>` +
    `<h1>CAS test server</h1>${message === '' ? '' : `<p role="alert">${htmlEscape(message)}</p>`}` +
    `<form method="post" action="${htmlEscape(action)}">` +
    `<label>Username <input name="username" autocomplete="username"></label>` +
    `<label>Password <input name="password" type="password" autocomplete="current-password"></label>` +
    `<button type="submit">Sign in</button></form></body></html>`
  );
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function cookieOf(request: http.IncomingMessage, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

export async function startCasTestServer(options: CasTestServerOptions = {}): Promise<CasTestServer> {
  const users = new Map<string, CasTestUser>(Object.entries(options.users ?? {}));
  const tickets = new Map<string, { service: string; user: string; session: string | null }>();
  /** CAS sessions (ticket-granting tickets): the user and the tickets issued in them. */
  const sessions = new Map<string, { user: string; issued: { service: string; ticket: string }[] }>();
  let counter = 0;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}/cas`;

  const issue = (service: string, user: string, session: string | null): string => {
    counter += 1;
    const ticket = token('ST', counter);
    tickets.set(ticket, { service, user, session });
    if (session !== null) sessions.get(session)?.issued.push({ service, ticket });
    return ticket;
  };

  const state: CasTestServer = {
    serverUrl: base,
    validationAnswer: 'protocol',
    externalEntityTarget: 'file:///etc/passwd',
    validations: [],
    logouts: [],
    singleLogouts: [],
    addUser: (name, user) => void users.set(name, user),
    issueTicket: (service, user) => {
      if (!users.has(user)) throw new Error(`cas-test-server: no user ${user}`);
      return issue(service, user, null);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };

  const send = (response: http.ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    response.end(body);
  };
  const sendXml = (response: http.ServerResponse, body: string) => send(response, 200, 'application/xml; charset=utf-8', body);
  const redirect = (response: http.ServerResponse, location: string, headers: Record<string, string> = {}) => {
    response.writeHead(302, { location, 'cache-control': 'no-store', ...headers });
    response.end();
  };

  const validate = (url: URL, response: http.ServerResponse) => {
    const service = url.searchParams.get('service');
    const ticket = url.searchParams.get('ticket');
    const record = (answer: string) => state.validations.push({ service: service ?? '', ticket: ticket ?? '', answer });
    if (state.validationAnswer === 'externalEntity') {
      record('externalEntity');
      return sendXml(response, externalEntityXml(state.externalEntityTarget));
    }
    if (!service || !ticket) {
      record('INVALID_REQUEST');
      return sendXml(response, failureXml('INVALID_REQUEST', "'service' and 'ticket' parameters are both required"));
    }
    const issued = tickets.get(ticket);
    // a ticket is valid once, whatever the outcome of its validation
    tickets.delete(ticket);
    if (!issued) {
      record('INVALID_TICKET');
      return sendXml(response, failureXml('INVALID_TICKET', `Ticket ${ticket} not recognized`));
    }
    if (issued.service !== service) {
      record('INVALID_SERVICE');
      return sendXml(response, failureXml('INVALID_SERVICE', `Ticket ${ticket} does not match supplied service. The original service was ${issued.service} and the supplied service was ${service}.`));
    }
    record('success');
    const user = users.get(issued.user);
    const pgt = state.validationAnswer === 'withProxyGrantingTicket' ? token('PGTIOU', counter) : null;
    return sendXml(response, successXml(issued.user, user?.attributes ?? {}, pgt));
  };

  const login = async (request: http.IncomingMessage, url: URL, response: http.ServerResponse) => {
    const service = url.searchParams.get('service');
    const renew = url.searchParams.get('renew') === 'true';
    const current = cookieOf(request, sessionCookie);
    const session = current === null ? undefined : sessions.get(current);
    if (request.method === 'GET') {
      if (session && current !== null && !renew) {
        if (service) return redirect(response, withTicket(service, issue(service, session.user, current)));
        return send(response, 200, 'text/html; charset=utf-8', '<!doctype html><title>CAS test server</title><p>Log In Successful</p>');
      }
      return send(response, 200, 'text/html; charset=utf-8', loginPage(service, ''));
    }
    if (request.method !== 'POST') return send(response, 405, 'text/plain', 'method not allowed');
    const form = new URLSearchParams(await readBody(request));
    const name = form.get('username') ?? '';
    const user = users.get(name);
    if (!user || user.password !== (form.get('password') ?? '')) return send(response, 401, 'text/html; charset=utf-8', loginPage(service, 'Invalid credentials.'));
    counter += 1;
    const granting = token('TGT', counter);
    sessions.set(granting, { user: name, issued: [] });
    const cookie = { 'set-cookie': `${sessionCookie}=${granting}; Path=/cas; HttpOnly; SameSite=Lax` };
    if (service) return redirect(response, withTicket(service, issue(service, name, granting)), cookie);
    return send(response, 200, 'text/html; charset=utf-8', '<!doctype html><title>CAS test server</title><p>Log In Successful</p>', cookie);
  };

  const logout = async (request: http.IncomingMessage, url: URL, response: http.ServerResponse) => {
    const service = url.searchParams.get('service');
    state.logouts.push({ service });
    const current = cookieOf(request, sessionCookie);
    const session = current === null ? undefined : sessions.get(current);
    if (current !== null && session) {
      sessions.delete(current);
      for (const { service: target, ticket } of session.issued) {
        const status = await sendSingleLogout(target, ticket).catch(() => 0);
        state.singleLogouts.push({ url: target, ticket, status });
      }
    }
    const cleared = { 'set-cookie': `${sessionCookie}=; Path=/cas; Max-Age=0; HttpOnly; SameSite=Lax` };
    if (service) return redirect(response, service, cleared);
    return send(response, 200, 'text/html; charset=utf-8', '<!doctype html><title>CAS test server</title><p>Logout successful</p>', cleared);
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    const handled =
      url.pathname === '/cas/login'
        ? login(request, url, response)
        : url.pathname === '/cas/p3/serviceValidate' && request.method === 'GET'
          ? Promise.resolve(validate(url, response))
          : url.pathname === '/cas/logout'
            ? logout(request, url, response)
            : Promise.resolve(send(response, 404, 'text/plain', 'not found'));
    handled.catch((error: unknown) => send(response, 500, 'text/plain', error instanceof Error ? error.message : 'error'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve());
  });
  return state;
}
