import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codeMessage, codes, languageCodes } from '@campus/contracts';
import type { BusinessCode } from '@campus/contracts';
import { CasClient, CasRefusal } from '../../src/modules/sso/cas-client.ts';
import { providerFetch } from '../../src/modules/sso/provider-fetch.ts';
import { ProviderNetworkPolicy } from '../../src/lib/outbound-addresses.ts';
import type { ProviderForProtocol, RoundTrip } from '../../src/modules/sso/protocol.ts';
import { freePort } from '../support/free-port.ts';
import { tempDir } from '../support/helpers.ts';
import { logoutRequestXml, sendSingleLogout, startCasTestServer } from '../support/cas-test-server.ts';
import type { CasTestServer } from '../support/cas-test-server.ts';

// Issue 49: the CAS 3.0 client against the protocol's documented answers served from loopback
// (support/cas-test-server.ts), and against answers no CAS server should send.

/** A loopback HTTP server that answers every request with `handler` and counts what it was asked. */
async function startPlainServer(handler: (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void) {
  const hits: string[] = [];
  const port = await freePort();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      hits.push(`${request.method} ${request.url}`);
      handler(request, response, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port }, resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function casProvider(serverUrl: string, accountAttribute = 'uid'): ProviderForProtocol {
  return { id: 'cas-1', tenantCode: 'T1', kind: 'cas', settings: { serverUrl, accountAttribute } };
}

let roundTripCounter = 0;
function newRoundTrip(): RoundTrip {
  roundTripCounter += 1;
  return { state: `state-${roundTripCounter}-Zq8`, nonce: '', codeVerifier: '', redirectUri: 'https://campus.example.edu/api/sso/cas/callback' };
}

/** The callback URL the browser comes back with: the service CAS was given, plus its ticket. */
function callbackFor(service: string, ticket: string): URL {
  const url = new URL(service);
  url.searchParams.append('ticket', ticket);
  return url;
}

async function serviceOf(client: CasClient, provider: ProviderForProtocol, roundTrip: RoundTrip): Promise<string> {
  const login = new URL(await client.authorizationUrl(provider, roundTrip));
  const service = login.searchParams.get('service');
  if (service === null) throw new Error('no service in the login URL');
  return service;
}

/** Resolves with the refusal `promise` ends with (fails the test when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<CasRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CasRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

function expectRefused(error: CasRefusal, code: BusinessCode, logDetail?: RegExp) {
  expect(error.code).toBe(code);
  if (logDetail) expect(error.logDetail).toMatch(logDetail);
}

/** The test CAS server runs on loopback: opened to it, as SSO_PROVIDER_NETWORKS=127.0.0.0/8,::1 would. */
const loopbackFetch = providerFetch({ policy: new ProviderNetworkPolicy(['127.0.0.0/8', '::1']) });

describe('CAS client (CAS 3.0 against the protocol\'s documented answers)', () => {
  let cas: CasTestServer;
  const client = new CasClient({ fetch: loopbackFetch });
  const users = {
    alice: { password: 'alice-pw', attributes: { uid: 'A1001', mail: 'alice@example.edu', affiliation: ['staff', 'faculty'] } },
    bob: { password: 'bob-pw', attributes: { mail: 'bob@example.edu' } },
    carol: { password: 'carol-pw', attributes: { uid: ['C1', 'C2'] } },
    'dan&co': { password: 'dan-pw', attributes: { uid: '张三 <&> 張三 "q"' } },
  };

  beforeAll(async () => {
    cas = await startCasTestServer({ users });
  });
  afterAll(async () => {
    await cas.close();
  });
  afterEach(() => {
    cas.validationAnswer = 'protocol';
  });

  it('reaches no CAS server on loopback unless its network is opened: refused by policy, never asked', async () => {
    const closed = new CasClient();
    const validations = cas.validations.length;
    const trip = newRoundTrip();
    const provider = casProvider(cas.serverUrl);
    const service = await serviceOf(closed, provider, trip);
    expectRefused(await refusal(closed.finish(provider, trip, callbackFor(service, 'ST-1-made-up'))), codes.ssoProviderAddressRefused, /refused by policy \(SSO_PROVIDER_NETWORKS\)/);
    const result = await closed.test(casProvider(cas.serverUrl), 'en-US');
    expect(result.ok).toBe(false);
    expect(result.steps.map((step) => step.detail).join(' ')).toContain('refused by policy');
    expect(cas.validations.length).toBe(validations);
  });

  it('sends the browser to <serverUrl>/login with the callback and its state as the service', async () => {
    const roundTrip = newRoundTrip();
    const login = new URL(await client.authorizationUrl(casProvider(`${cas.serverUrl}/`), roundTrip));
    expect(`${login.origin}${login.pathname}`).toBe(`${cas.serverUrl}/login`);
    const service = new URL(login.searchParams.get('service') ?? '');
    expect(`${service.origin}${service.pathname}`).toBe(roundTrip.redirectUri);
    expect(service.searchParams.get('state')).toBe(roundTrip.state);
  });

  it('signs a person in through the login form: the account from the attribute, the user as subject, the ticket as session', async () => {
    const roundTrip = newRoundTrip();
    const provider = casProvider(cas.serverUrl);
    const loginUrl = await client.authorizationUrl(provider, roundTrip);
    const form = await fetch(loginUrl);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="username"');
    const posted = await fetch(loginUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'alice', password: 'alice-pw' }).toString(),
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    const callback = new URL(posted.headers.get('location') ?? '');
    const ticket = callback.searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);

    const before = cas.validations.length;
    const signedIn = await client.finish(provider, roundTrip, callback);
    expect(signedIn).toEqual({ account: 'A1001', subject: 'alice', providerSession: ticket, idToken: null });
    // the service at validation is the one of the login, byte for byte
    const validation = cas.validations[before];
    expect(validation?.answer).toBe('success');
    expect(validation?.service).toBe(new URL(loginUrl).searchParams.get('service'));
  });

  it('takes the CAS user itself when the account attribute is empty', async () => {
    const roundTrip = newRoundTrip();
    const provider = casProvider(cas.serverUrl, '');
    const service = await serviceOf(client, provider, roundTrip);
    const signedIn = await client.finish(provider, roundTrip, callbackFor(service, cas.issueTicket(service, 'bob')));
    expect(signedIn.account).toBe('bob');
    expect(signedIn.subject).toBe('bob');
  });

  it('decodes the XML escapes of names and attributes, and nothing else', async () => {
    const roundTrip = newRoundTrip();
    const provider = casProvider(cas.serverUrl);
    const service = await serviceOf(client, provider, roundTrip);
    const signedIn = await client.finish(provider, roundTrip, callbackFor(service, cas.issueTicket(service, 'dan&co')));
    expect(signedIn.account).toBe('张三 <&> 張三 "q"');
    expect(signedIn.subject).toBe('dan&co');
  });

  it('refuses an answer without the account attribute, or with several values of it, as ssoAccountClaimMissing', async () => {
    const provider = casProvider(cas.serverUrl);
    for (const user of ['bob', 'carol']) {
      const roundTrip = newRoundTrip();
      const service = await serviceOf(client, provider, roundTrip);
      const error = await refusal(client.finish(provider, roundTrip, callbackFor(service, cas.issueTicket(service, user))));
      expectRefused(error, codes.ssoAccountClaimMissing, /uid/);
    }
  });

  it('refuses a made-up ticket and a replayed one (INVALID_TICKET), keeping the CAS code for the log only', async () => {
    const provider = casProvider(cas.serverUrl);
    const roundTrip = newRoundTrip();
    const service = await serviceOf(client, provider, roundTrip);

    const madeUp = await refusal(client.finish(provider, roundTrip, callbackFor(service, 'ST-1-not-issued-here')));
    expectRefused(madeUp, codes.ssoTicketRejected, /INVALID_TICKET/);
    expect(madeUp.httpStatus).toBe(401);

    const ticket = cas.issueTicket(service, 'alice');
    await expect(client.finish(provider, roundTrip, callbackFor(service, ticket))).resolves.toMatchObject({ account: 'A1001' });
    const replayed = await refusal(client.finish(provider, roundTrip, callbackFor(service, ticket)));
    expectRefused(replayed, codes.ssoTicketRejected, /INVALID_TICKET/);
    expect(cas.validations.at(-1)?.answer).toBe('INVALID_TICKET');
    for (const language of languageCodes) {
      expect(replayed.messageIn(language)).toBe(codeMessage(codes.ssoTicketRejected, language));
      expect(replayed.messageIn(language)).not.toMatch(/INVALID|ST-/);
    }
    expect(replayed.logDetail).not.toContain(ticket);
  });

  it('refuses a ticket issued for another service (INVALID_SERVICE), and the ticket is spent', async () => {
    const provider = casProvider(cas.serverUrl);
    const roundTrip = newRoundTrip();
    const service = await serviceOf(client, provider, roundTrip);
    const otherService = await serviceOf(client, provider, newRoundTrip());
    const ticket = cas.issueTicket(otherService, 'alice');
    // the browser comes back to this round trip's callback with a ticket CAS issued for another service
    const error = await refusal(client.finish(provider, roundTrip, callbackFor(service, ticket)));
    expectRefused(error, codes.ssoTicketRejected, /INVALID_SERVICE/);
    expect(cas.validations.at(-1)).toMatchObject({ service, ticket, answer: 'INVALID_SERVICE' });
  });

  it('ignores a proxy-granting ticket in a successful answer', async () => {
    cas.validationAnswer = 'withProxyGrantingTicket';
    const provider = casProvider(cas.serverUrl);
    const roundTrip = newRoundTrip();
    const service = await serviceOf(client, provider, roundTrip);
    const ticket = cas.issueTicket(service, 'alice');
    const signedIn = await client.finish(provider, roundTrip, callbackFor(service, ticket));
    expect(signedIn).toEqual({ account: 'A1001', subject: 'alice', providerSession: ticket, idToken: null });
    expect(JSON.stringify(signedIn)).not.toContain('PGT');
  });

  it('refuses a callback whose state is not the round trip\'s, or that carries no ticket, before asking CAS', async () => {
    const provider = casProvider(cas.serverUrl);
    const roundTrip = newRoundTrip();
    const service = await serviceOf(client, provider, roundTrip);
    const ticket = cas.issueTicket(service, 'alice');
    const before = cas.validations.length;
    const changed = callbackFor(service, ticket);
    changed.searchParams.set('state', `${roundTrip.state}x`);
    expectRefused(await refusal(client.finish(provider, roundTrip, changed)), codes.ssoStateInvalid);
    expectRefused(await refusal(client.finish(provider, roundTrip, new URL(service))), codes.ssoTicketRejected, /no service ticket/);
    const twice = callbackFor(service, ticket);
    twice.searchParams.append('ticket', ticket);
    expectRefused(await refusal(client.finish(provider, roundTrip, twice)), codes.ssoTicketRejected);
    expect(cas.validations.length).toBe(before);
  });

  it('ends the CAS session at <serverUrl>/logout with the service to come back to', async () => {
    const provider = casProvider(cas.serverUrl);
    const back = 'https://campus.example.edu/login?from=cas&x=1';
    const logoutUrl = await client.logoutUrl(provider, { idToken: null }, back);
    const parsed = new URL(logoutUrl ?? '');
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${cas.serverUrl}/logout`);
    expect(parsed.searchParams.get('service')).toBe(back);
    const reply = await fetch(logoutUrl ?? '', { redirect: 'manual' });
    expect(reply.status).toBe(302);
    expect(reply.headers.get('location')).toBe(back);
    expect(cas.logouts.at(-1)).toEqual({ service: back });
  });

  it('reads CAS single logout: the CAS session\'s logout posts the ticket it validated to the service', async () => {
    const received: Record<string, string>[] = [];
    const receiver = await startPlainServer((_request, response, body) => {
      received.push(Object.fromEntries(new URLSearchParams(body)));
      response.writeHead(200).end();
    });
    try {
      const provider = casProvider(cas.serverUrl);
      const roundTrip = { ...newRoundTrip(), redirectUri: `${receiver.url}/api/sso/cas/callback` };
      const loginUrl = await client.authorizationUrl(provider, roundTrip);
      const posted = await fetch(loginUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'alice', password: 'alice-pw' }).toString(),
        redirect: 'manual',
      });
      const cookie = (posted.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie).toMatch(/^CASTGC=TGT-/);
      const signedIn = await client.finish(provider, roundTrip, new URL(posted.headers.get('location') ?? ''));

      const logoutUrl = await client.logoutUrl(provider, { idToken: null }, 'https://campus.example.edu/login');
      await fetch(logoutUrl ?? '', { headers: { cookie }, redirect: 'manual' });
      expect(received).toHaveLength(1);
      expect(receiver.hits[0]).toBe(`POST ${new URL(await serviceOf(client, provider, roundTrip)).pathname}?state=${roundTrip.state}`);
      await expect(client.readLogout(provider, received[0] ?? {})).resolves.toEqual({ providerSession: signedIn.providerSession });
      // the same message sent by the helper a browser test uses
      await sendSingleLogout(`${receiver.url}/api/sso/cas/callback`, 'ST-42-abc');
      await expect(client.readLogout(provider, received[1] ?? {})).resolves.toEqual({ providerSession: 'ST-42-abc' });
    } finally {
      await receiver.close();
    }
  });

  it('refuses a single logout form without a LogoutRequest', async () => {
    const provider = casProvider(cas.serverUrl);
    expectRefused(await refusal(client.readLogout(provider, {})), codes.ssoResponseInvalid);
    expectRefused(await refusal(client.readLogout(provider, { logoutRequest: 'not xml' })), codes.ssoResponseInvalid);
    expectRefused(await refusal(client.readLogout(provider, { logoutRequest: '<cas:serviceResponse xmlns:cas="x"/>' })), codes.ssoResponseInvalid, /not a SAML LogoutRequest/);
    const noIndex = logoutRequestXml('ST-1').replace(/<samlp:SessionIndex>.*<\/samlp:SessionIndex>/, '');
    expectRefused(await refusal(client.readLogout(provider, { logoutRequest: noIndex })), codes.ssoResponseInvalid, /SessionIndex/);
  });

  it('answers "test connection": the login page answers and p3/serviceValidate refuses a made-up ticket, in three languages', async () => {
    const provider = casProvider(cas.serverUrl);
    const details = new Set<string>();
    for (const language of languageCodes) {
      const result = await client.test(provider, language);
      expect(result.ok).toBe(true);
      expect(result.clockSkewSeconds).toBeNull();
      expect(result.steps.map((step) => [step.step, step.ok])).toEqual([
        ['discovery', true],
        ['validation', true],
      ]);
      expect(result.steps[1]?.detail).toContain('INVALID_TICKET');
      for (const step of result.steps) details.add(step.detail);
    }
    expect(details.size).toBe(6);
    expect(cas.validations.at(-1)?.answer).toBe('INVALID_TICKET');
  });
});

describe('CAS client refuses XML with a document type or entities (XXE)', () => {
  let cas: CasTestServer;
  let recorder: Awaited<ReturnType<typeof startPlainServer>>;
  const dir = tempDir('campus-cas-xxe-');
  const secretFile = path.join(dir, 'secret.txt');
  const secret = 'TOP-SECRET-9d41c7';
  const client = new CasClient({ fetch: loopbackFetch });

  beforeAll(async () => {
    fs.writeFileSync(secretFile, secret);
    cas = await startCasTestServer({ users: { alice: { password: 'pw', attributes: { uid: 'A1' } } } });
    recorder = await startPlainServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(secret);
    });
    cas.validationAnswer = 'externalEntity';
  });
  afterAll(async () => {
    await cas.close();
    await recorder.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const target of ['a local file', 'a loopback URL'] as const) {
    it(`refuses an answer whose entity points at ${target}, and never fetches it`, async () => {
      cas.externalEntityTarget = target === 'a local file' ? pathToFileURL(secretFile).href : `${recorder.url}/xxe-validation`;
      const provider = casProvider(cas.serverUrl);
      const roundTrip = newRoundTrip();
      const service = await serviceOf(client, provider, roundTrip);
      const error = await refusal(client.finish(provider, roundTrip, callbackFor(service, 'ST-1-any')));
      expectRefused(error, codes.ssoResponseInvalid, /DOCTYPE/);
      expect(error.httpStatus).toBe(502);
      expect(cas.validations.at(-1)?.answer).toBe('externalEntity');
      expect(`${error.message} ${error.logDetail} ${JSON.stringify(error.data)}`).not.toContain(secret);
      for (const language of languageCodes) expect(error.messageIn(language)).toBe(codeMessage(codes.ssoResponseInvalid, language));
      expect(recorder.hits).toEqual([]);
    });

    it(`refuses a single logout whose entity points at ${target}, and never fetches it`, async () => {
      const externalEntityTarget = target === 'a local file' ? pathToFileURL(secretFile).href : `${recorder.url}/xxe-logout`;
      const logoutRequest = logoutRequestXml('ST-7', { externalEntityTarget });
      expect(logoutRequest).toContain('<!ENTITY xxe SYSTEM');
      const error = await refusal(client.readLogout(casProvider(cas.serverUrl), { logoutRequest }));
      expectRefused(error, codes.ssoResponseInvalid, /DOCTYPE/);
      expect(error.httpStatus).toBe(400);
      expect(`${error.message} ${error.logDetail}`).not.toContain(secret);
      expect(recorder.hits).toEqual([]);
    });
  }

  it('refuses internal entities (billion laughs), a bare DOCTYPE and an undeclared entity reference', async () => {
    const provider = casProvider(cas.serverUrl);
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><samlp:SessionIndex>&lol2;</samlp:SessionIndex></samlp:LogoutRequest>';
    const bareDoctype = `<!DOCTYPE samlp:LogoutRequest>${logoutRequestXml('ST-1')}`;
    const lowerCase = `<!doctype x [<!entity e SYSTEM "${recorder.url}/lower">]>${logoutRequestXml('ST-1')}`;
    for (const logoutRequest of [laughs, bareDoctype, lowerCase]) {
      expectRefused(await refusal(client.readLogout(provider, { logoutRequest })), codes.ssoResponseInvalid, /DOCTYPE/);
    }
    const undeclared = logoutRequestXml('ST-1').replace('ST-1', '&xxe;');
    expectRefused(await refusal(client.readLogout(provider, { logoutRequest: undeclared })), codes.ssoResponseInvalid, /entity reference/);
    expect(recorder.hits).toEqual([]);
  });
});

describe('CAS client facing a server that does not answer as CAS does', () => {
  const provider = (url: string) => casProvider(`${url}/cas`);

  it('maps no answer within the timeout, a closed port and a server error to ssoProviderUnreachable (502)', async () => {
    const silent = await startPlainServer(() => undefined);
    const failing = await startPlainServer((_request, response) => response.writeHead(503).end('down'));
    const closed = `http://127.0.0.1:${await freePort()}`;
    try {
      const client = new CasClient({ fetch: loopbackFetch, timeoutMs: 300 });
      for (const url of [silent.url, closed, failing.url]) {
        const roundTrip = newRoundTrip();
        const service = await serviceOf(client, provider(url), roundTrip);
        const started = Date.now();
        const error = await refusal(client.finish(provider(url), roundTrip, callbackFor(service, 'ST-1-x')));
        expectRefused(error, codes.ssoProviderUnreachable);
        expect(error.httpStatus).toBe(502);
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      await silent.close();
      await failing.close();
    }
  });

  it('waits 5 s for the CAS server unless told otherwise', async () => {
    const silent = await startPlainServer(() => undefined);
    try {
      const client = new CasClient({ fetch: loopbackFetch });
      const roundTrip = newRoundTrip();
      const service = await serviceOf(client, provider(silent.url), roundTrip);
      const started = Date.now();
      expectRefused(await refusal(client.finish(provider(silent.url), roundTrip, callbackFor(service, 'ST-1-x'))), codes.ssoProviderUnreachable);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(4900);
      expect(waited).toBeLessThan(8000);
    } finally {
      await silent.close();
    }
  }, 20_000);

  it('refuses an answer that is not a CAS serviceResponse, not well-formed or too large as ssoResponseInvalid', async () => {
    const answers: Record<string, string> = {
      '/html/cas/p3/serviceValidate': '<html><body>Welcome</body></html>',
      '/broken/cas/p3/serviceValidate': '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess></cas:serviceResponse>',
      '/empty/cas/p3/serviceValidate': '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user></cas:user></cas:authenticationSuccess></cas:serviceResponse>',
      '/large/cas/p3/serviceValidate': `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">${'<cas:x>y</cas:x>'.repeat(40_000)}</cas:serviceResponse>`,
      '/redirect/cas/p3/serviceValidate': '',
    };
    const server = await startPlainServer((request, response) => {
      const pathname = new URL(request.url ?? '/', 'http://x').pathname;
      if (pathname.startsWith('/redirect/')) return void response.writeHead(302, { location: '/html/cas/p3/serviceValidate' }).end();
      response.writeHead(200, { 'content-type': 'application/xml' }).end(answers[pathname] ?? '');
    });
    try {
      const client = new CasClient({ fetch: loopbackFetch });
      for (const [prefix, why] of [
        ['html', /not a CAS serviceResponse/],
        ['broken', /not well-formed/],
        ['empty', /no user/],
        ['large', /larger than/],
        ['redirect', /not well-formed|root/],
      ] as const) {
        const roundTrip = newRoundTrip();
        const url = `${server.url}/${prefix}`;
        const service = await serviceOf(client, provider(url), roundTrip);
        expectRefused(await refusal(client.finish(provider(url), roundTrip, callbackFor(service, 'ST-1-x'))), codes.ssoResponseInvalid, why);
      }
      // the redirect is not followed: only the html case itself asked /html/
      expect(server.hits.filter((hit) => hit.includes('/html/'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('reads a success written with a comment, CDATA, character references and another namespace prefix', async () => {
    const answer =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a CAS server\'s comment -->\n' +
      '<c:serviceResponse xmlns:c="http://www.yale.edu/tp/cas"><c:authenticationSuccess><c:user>erin</c:user>' +
      '<c:attributes><c:uid><![CDATA[E&1<2>]]></c:uid><c:mail>&#x65;&#114;in@example.edu</c:mail></c:attributes>' +
      '</c:authenticationSuccess></c:serviceResponse>';
    const server = await startPlainServer((_request, response) => response.writeHead(200, { 'content-type': 'text/xml' }).end(answer));
    try {
      const client = new CasClient({ fetch: loopbackFetch });
      for (const [attribute, account] of [['uid', 'E&1<2>'], ['mail', 'erin@example.edu']] as const) {
        const roundTrip = newRoundTrip();
        const cdata = casProvider(`${server.url}/cas`, attribute);
        const service = await serviceOf(client, cdata, roundTrip);
        await expect(client.finish(cdata, roundTrip, callbackFor(service, 'ST-5-e'))).resolves.toEqual({ account, subject: 'erin', providerSession: 'ST-5-e', idToken: null });
      }
      expect(server.hits[0]).toMatch(/^GET \/cas\/p3\/serviceValidate\?service=https%3A%2F%2Fcampus\.example\.edu%2Fapi%2Fsso%2Fcas%2Fcallback%3Fstate%3Dstate-\d+-Zq8&ticket=ST-5-e$/);
    } finally {
      await server.close();
    }
  });

  it('refuses a server URL that is not https (http on loopback only) before any call', async () => {
    const client = new CasClient({ fetch: loopbackFetch });
    for (const serverUrl of ['http://cas.example.edu/cas', 'ftp://127.0.0.1/cas', 'https://cas.example.edu/cas?x=1', 'not a url']) {
      const error = await refusal(client.authorizationUrl(casProvider(serverUrl), newRoundTrip()));
      expectRefused(error, codes.ssoProviderConfigInvalid);
      expect(error.values).toEqual({ field: 'serverUrl' });
    }
    await expect(client.authorizationUrl(casProvider('https://cas.example.edu/cas/'), newRoundTrip())).resolves.toMatch(/^https:\/\/cas\.example\.edu\/cas\/login\?service=/);
  });

  it('says in "test connection" what is not CAS: a web server answering pages, nobody answering, a bad URL', async () => {
    const web = await startPlainServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hello</body></html>'));
    const closed = `http://127.0.0.1:${await freePort()}`;
    try {
      const client = new CasClient({ fetch: loopbackFetch, timeoutMs: 300 });
      const notCas = await client.test(provider(web.url), 'en-US');
      expect(notCas.ok).toBe(false);
      expect(notCas.steps.map((step) => [step.step, step.ok])).toEqual([
        ['discovery', true],
        ['validation', false],
      ]);
      expect(notCas.steps[1]?.detail).toMatch(/not answer a CAS 3.0 response/);
      const zh = await client.test(provider(web.url), 'zh-CN');
      expect(zh.steps[1]?.detail).toContain('CAS 3.0');
      expect(zh.steps[1]?.detail).not.toBe(notCas.steps[1]?.detail);

      const nobody = await client.test(provider(closed), 'zh-MO');
      expect(nobody.ok).toBe(false);
      expect(nobody.steps.every((step) => !step.ok && step.detail.includes('沒有應答'))).toBe(true);

      const badUrl = await client.test(casProvider('http://cas.example.edu/cas'), 'en-US');
      expect(badUrl).toMatchObject({ ok: false, steps: [{ step: 'discovery', ok: false }] });
    } finally {
      await web.close();
    }
  });
});
