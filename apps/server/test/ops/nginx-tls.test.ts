import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/config.ts';
import { tempDir } from '../support/helpers.ts';
import { nginxBinary, startNginxSite } from '../support/nginx-helpers.ts';
import type { Nginx } from '../support/nginx-helpers.ts';
import { freePort } from '../support/free-port.ts';

const tlsTemplate = path.join(repoRoot, 'deploy', 'nginx', 'campus-shell-tls.conf');
const serverName = 'campus.test';

/**
 * The shipped TLS site (deploy/nginx/campus-shell-tls.conf) filled in as install.sh fills it, on loopback ports;
 * `stapling` turns its "#stapling" lines on as install.sh does for a certificate with its chain.
 */
function renderTlsSite(prefix: string, ports: { http: number; https: number; upstream: number }, cert: string, key: string, stapling: boolean): string {
  let site = fs
    .readFileSync(tlsTemplate, 'utf8')
    .replaceAll('@PORT@', String(ports.upstream))
    .replaceAll('@SERVER_NAME@', serverName)
    .replaceAll('@TLS_CERT@', cert)
    .replaceAll('@TLS_KEY@', key)
    .replaceAll('@LOG_DIR@', prefix);
  if (stapling) site = site.replace(/^( *)#stapling /gm, '$1');
  const listens = [/^(\s*)listen 80;$/m, /^(\s*)listen 443 ssl http2;$/m];
  for (const pattern of listens) if (!pattern.test(site)) throw new Error(`${tlsTemplate} no longer has ${pattern}`);
  return site.replace(listens[0]!, `$1listen 127.0.0.1:${ports.http};`).replace(listens[1]!, `$1listen 127.0.0.1:${ports.https} ssl http2;`);
}

function openssl(args: string[], input = ''): { status: number | null; out: string } {
  const run = spawnSync('openssl', args, { input, encoding: 'utf8', timeout: 15_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/**
 * One handshake with `openssl s_client`: whether it was completed, with what it said. The "New, …, Cipher is" line is
 * the one to read: the session block ("Cipher    :") is printed only once a TLS 1.3 server sends a session ticket,
 * which this site does not, and s_client may quit before it.
 */
function handshake(port: number, ...options: string[]): { done: boolean; out: string } {
  const run = openssl(['s_client', '-connect', `127.0.0.1:${port}`, '-servername', serverName, ...options], 'Q\n');
  return { done: run.status === 0 && /^New, TLSv1\.[23], Cipher is (?!\(NONE\))\S+/m.test(run.out), out: run.out };
}

describe('the shipped nginx TLS site (issue 46 item 13)', () => {
  let work: string;
  let nginx: Nginx;
  let port: number;
  beforeAll(async () => {
    work = tempDir('campus-tls-');
    const cert = path.join(work, 'site.crt');
    const key = path.join(work, 'site.key');
    const made = openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${serverName}`, '-addext', `subjectAltName=DNS:${serverName}`, '-keyout', key, '-out', cert]);
    if (made.status !== 0) throw new Error(made.out);
    const http = await freePort();
    port = await freePort(new Set([http]));
    const upstream = await freePort(new Set([http, port]));
    nginx = await startNginxSite((prefix) => renderTlsSite(prefix, { http, https: port, upstream }, cert, key, false), port);
  });
  afterAll(async () => {
    await nginx?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('TLS 1.3, and TLS 1.2 with ECDHE and AES-GCM or ChaCha20-Poly1305, are accepted', () => {
    const tls13 = handshake(port, '-tls1_3');
    expect(tls13.done, tls13.out).toBe(true);
    expect(tls13.out).toMatch(/New, TLSv1\.3, Cipher is TLS_/);
    for (const suite of ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305']) {
      const tls12 = handshake(port, '-tls1_2', '-cipher', suite);
      expect(tls12.done, `${suite}\n${tls12.out}`).toBe(true);
      expect(tls12.out).toContain(`Cipher is ${suite}`);
    }
  });

  it('static RSA, CBC, Camellia and ARIA suites and TLS 1.1 are refused', () => {
    // each offered alone by the client: a refusal is the server's, not a suite the client lacks
    for (const offer of ['AES128-SHA256', 'AES256-GCM-SHA384', 'kRSA', 'ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384', 'CAMELLIA', 'ARIA', 'DHE-RSA-AES128-GCM-SHA256']) {
      expect(openssl(['ciphers', '-tls1_2', offer]).status, `this OpenSSL offers ${offer}`).toBe(0);
      const tried = handshake(port, '-tls1_2', '-cipher', offer);
      expect(tried.done, `${offer} was accepted:\n${tried.out}`).toBe(false);
      expect(tried.out).toMatch(/handshake failure|no shared cipher|alert/i);
    }
    const old = handshake(port, '-tls1_1', '-cipher', 'DEFAULT@SECLEVEL=0');
    expect(old.done, old.out).toBe(false);
  });

  it('TLS 1.2 sessions get no ticket (resumed from the session cache instead)', () => {
    const tls12 = handshake(port, '-tls1_2');
    expect(tls12.done, tls12.out).toBe(true);
    expect(tls12.out).not.toMatch(/TLS session ticket lifetime hint/);
    expect(tls12.out).toMatch(/Session-ID: [0-9A-F]{64}/);
  });

  it('with a certificate and its chain, the stapling lines install.sh turns on pass nginx -t', async () => {
    const ca = path.join(work, 'ca.crt');
    const caKey = path.join(work, 'ca.key');
    const leafKey = path.join(work, 'leaf.key');
    const request = path.join(work, 'leaf.csr');
    const leaf = path.join(work, 'leaf.crt');
    const chain = path.join(work, 'fullchain.pem');
    for (const args of [
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Campus Test CA', '-keyout', caKey, '-out', ca],
      ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${serverName}`, '-keyout', leafKey, '-out', request],
      ['x509', '-req', '-in', request, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-days', '2', '-out', leaf],
    ]) {
      const run = openssl(args);
      if (run.status !== 0) throw new Error(run.out);
    }
    fs.writeFileSync(chain, `${fs.readFileSync(leaf, 'utf8')}${fs.readFileSync(ca, 'utf8')}`);
    const prefix = tempDir('campus-nginx-t-');
    try {
      const site = renderTlsSite(prefix, { http: 1, https: 2, upstream: 3 }, chain, leafKey, true);
      expect(site).toMatch(/^\s*ssl_stapling on;$/m);
      expect(site).toMatch(/^\s*ssl_stapling_verify on;$/m);
      expect(site).toContain(`ssl_trusted_certificate ${chain};`);
      fs.writeFileSync(path.join(prefix, 'site.conf'), site);
      fs.writeFileSync(path.join(prefix, 'nginx.conf'), `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log;\nevents {}\nhttp {\n  include ${prefix}/site.conf;\n}\n`);
      const test = spawnSync(nginxBinary, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-t'], { encoding: 'utf8' });
      expect(test.status, test.stderr).toBe(0);
    } finally {
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  });
});
