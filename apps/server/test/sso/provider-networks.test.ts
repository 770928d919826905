import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { ProviderNetworkPolicy, addressKind, parseProviderNetworks } from '../../src/lib/outbound-addresses.ts';
import { ProviderAddressRefused, providerFetch } from '../../src/modules/sso/provider-fetch.ts';
import type { Resolve } from '../../src/modules/sso/provider-fetch.ts';

// The operator's outbound policy for identity providers (issue 49, docs/sso.md "Providers on your intranet").

describe('what an address is', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.3.4', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:0808:0808::1', 'public'],
  ])('an IPv6 address carrying IPv4, %s, is what the IPv4 address is: %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it('something that is no address has no kind', () => {
    for (const text of ['', 'localhost', '1.2.3', '1.2.3.256', '::1::2', 'fe80::g']) expect(addressKind(text), text).toBeNull();
  });
});

describe('the policy', () => {
  it('allows public addresses only, unless the operator opened a range or a host name', () => {
    const closed = new ProviderNetworkPolicy();
    expect(closed.allows('idp.example.edu', '8.8.8.8')).toBe(true);
    for (const address of ['127.0.0.1', '::1', '10.0.0.5', '169.254.169.254', '::ffff:127.0.0.1', '100.64.1.1', 'fe80::1', '0.0.0.0']) {
      expect(closed.allows('idp.example.edu', address), address).toBe(false);
    }
    const open = new ProviderNetworkPolicy(['10.20.0.0/16', '::1', 'cas.campus.local']);
    expect(open.allows('x', '10.20.3.4')).toBe(true);
    expect(open.allows('x', '::ffff:10.20.3.4')).toBe(true);
    expect(open.allows('x', '10.21.0.1')).toBe(false);
    expect(open.allows('x', '::1')).toBe(true);
    expect(open.allows('x', '127.0.0.1')).toBe(false);
    expect(open.allows('CAS.campus.local.', '192.168.7.7')).toBe(true);
    expect(open.allows('other.campus.local', '192.168.7.7')).toBe(false);
    expect(open.allows('x', '169.254.169.254')).toBe(false);
  });
});

describe('SSO_PROVIDER_NETWORKS', () => {
  it('reads ranges, addresses and host names, comma-separated, lowercase', () => {
    expect(loadConfig({}).ssoProviderNetworks).toEqual([]);
    expect(loadConfig({ SSO_PROVIDER_NETWORKS: ' ' }).ssoProviderNetworks).toEqual([]);
    expect(loadConfig({ SSO_PROVIDER_NETWORKS: '10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8,CAS.Campus.Local' }).ssoProviderNetworks).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'cas.campus.local']);
  });

  it.each(['10.0.0.0/33', '::1/129', '10.0.0.0/', 'http://cas.campus.local', 'cas.campus.local:8443', '*.campus.local', '10.0.0.0/8,,::1', 'cas campus', 'cas.campus.local/24'])(
    'stops the start on "%s", naming the setting',
    (value) => {
      expect(() => loadConfig({ SSO_PROVIDER_NETWORKS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ SSO_PROVIDER_NETWORKS: value })).toThrow(/SSO_PROVIDER_NETWORKS/);
    },
  );

  it('names the bad item', () => {
    expect(parseProviderNetworks('10.0.0.0/8,bad_name')).toMatchObject({ item: 'bad_name' });
  });
});

describe('the provider fetch', () => {
  let server: http.Server;
  let port: number;
  const seen: { host: string | undefined; path: string | undefined; method: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ host: request.headers.host, path: request.url, method: request.method, body });
        if (request.url === '/redirect') {
          response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
          return;
        }
        if (request.url === '/large') {
          response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(4096));
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json', date: new Date().toUTCString() }).end(JSON.stringify({ ok: true, body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const loopbackOpen = new ProviderNetworkPolicy(['127.0.0.0/8', '::1']);
  const refusedCause = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).cause;
  };

  it('connects to an opened loopback address: method, headers, a form body, the answer', async () => {
    const fetch = providerFetch({ policy: loopbackOpen });
    const response = await fetch(`http://127.0.0.1:${port}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ a: '1' }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true, body: 'a=1' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: '/token' });
  });

  it('refuses loopback, metadata and mapped addresses while the operator has not opened them, before any connection', async () => {
    const fetch = providerFetch({ policy: new ProviderNetworkPolicy() });
    const before = seen.length;
    for (const url of [`http://127.0.0.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, 'https://169.254.169.254/latest/meta-data/', 'https://[fd00::1]/', 'https://10.0.0.1/']) {
      const cause = await refusedCause(fetch(url));
      expect(cause, url).toBeInstanceOf(ProviderAddressRefused);
      expect(String((cause as Error).message), url).toBe("the provider's address is refused by policy (SSO_PROVIDER_NETWORKS)");
    }
    expect(seen.length).toBe(before);
  });

  it('checks every address a name resolves to, and connects to the one it checked (no second look-up)', async () => {
    let lookups = 0;
    // a rebinding DNS: public at the first answer, loopback at any later one
    const rebinding: Resolve = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]);
    const opened = providerFetch({ policy: loopbackOpen, resolve: rebinding });
    const response = await opened(`http://idp.rebind.test:${port}/doc`);
    expect(response.status).toBe(200);
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toMatchObject({ host: `idp.rebind.test:${port}`, path: '/doc' });

    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    expect(await refusedCause(providerFetch({ policy: new ProviderNetworkPolicy(), resolve: mixed })(`https://idp.mixed.test/`))).toBeInstanceOf(ProviderAddressRefused);
    const toLoopback: Resolve = async () => [{ address: '::1', family: 6 }];
    expect(await refusedCause(providerFetch({ policy: new ProviderNetworkPolicy(), resolve: toLoopback })(`https://localhost.evil.test/`))).toBeInstanceOf(ProviderAddressRefused);
  });

  it('an opened host name is reached on the intranet whatever it resolves to; another name is not', async () => {
    const intranet: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const policy = new ProviderNetworkPolicy(['cas.campus.test']);
    const fetch = providerFetch({ policy, resolve: intranet });
    expect((await fetch(`http://cas.campus.test:${port}/cas/login`)).status).toBe(200);
    expect(await refusedCause(fetch(`http://cas2.campus.test:${port}/cas/login`))).toBeInstanceOf(ProviderAddressRefused);
  });

  it('plain http only to loopback, even on an opened network', async () => {
    const intranet: Resolve = async () => [{ address: '10.0.0.8', family: 4 }];
    const fetch = providerFetch({ policy: new ProviderNetworkPolicy(['10.0.0.0/8']), resolve: intranet });
    expect(await refusedCause(fetch('http://cas.campus.test/cas/login'))).toBeInstanceOf(ProviderAddressRefused);
  });

  it('never follows a redirect: the 3xx comes back as it was sent, nothing is asked of its target', async () => {
    const fetch = providerFetch({ policy: loopbackOpen });
    const before = seen.length;
    const response = await fetch(`http://127.0.0.1:${port}/redirect`, { redirect: 'follow' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://169.254.169.254/latest/meta-data/');
    expect(seen.length).toBe(before + 1);
  });

  it('an answer larger than the limit fails while it is read', async () => {
    const fetch = providerFetch({ policy: loopbackOpen, maxBytes: 1024 });
    const response = await fetch(`http://127.0.0.1:${port}/large`);
    await expect(response.text()).rejects.toThrow();
  });

  it('gives up when the signal aborts, with its reason', async () => {
    const fetch = providerFetch({ policy: loopbackOpen, resolve: () => new Promise(() => undefined) });
    await expect(fetch(`http://slow.test:${port}/`, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
