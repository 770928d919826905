import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codes, licenceLimits } from '@campus/contracts';
import { parseGraceMs } from '../../src/http/uploaded-files.ts';
import { databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/** A multipart body of `count` small .lic parts in field `files`. */
function multipart(count: number, boundary: string): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="f${i}.lic"\r\nContent-Type: application/octet-stream\r\n\r\nnot a licence ${i}\r\n`);
  }
  parts.push(`--${boundary}--\r\n`);
  return Buffer.from(parts.join(''), 'utf8');
}

interface Answer {
  status: number;
  body: string;
  /** The local port of the socket the answer came on, to tell a reused connection from a new one. */
  socketPort: number;
  connection: string | undefined;
}

function send(agent: http.Agent, url: URL, options: { method: string; path: string; headers: Record<string, string>; body?: Buffer; chunked?: boolean }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: url.hostname, port: url.port, method: options.method, path: options.path, headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), socketPort: request.socket?.localPort ?? 0, connection: response.headers.connection }));
      response.on('error', reject);
    });
    request.on('error', reject);
    // a hang guard, not a speed target: the stall this file is about lasted 73 s
    request.setTimeout(20_000, () => request.destroy(new Error(`no answer to ${options.method} ${options.path} within 20 s`)));
    if (options.chunked && options.body) {
      // written in two pieces without a length: Transfer-Encoding chunked
      const half = Math.floor(options.body.length / 2);
      request.write(options.body.subarray(0, half));
      request.end(options.body.subarray(half));
    } else {
      request.end(options.body);
    }
  });
}

describe.each(databases)('a refused upload does not stall its connection (%s)', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([1_000, 5_000])('%i files are refused at once and the next request on the same keep-alive agent is answered', async (count) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = new URL(server.url);
      const boundary = 'campus-test-boundary';
      const refused = await send(agent, url, {
        method: 'POST',
        path: apiPaths.licenceUpload,
        headers: { token, language: 'en-US', 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipart(count, boundary),
      });
      expect(refused.status).toBe(400);
      const envelope = JSON.parse(refused.body) as { code: number; msg: string };
      expect(envelope.code).toBe(codes.badRequest);
      expect(envelope.msg).toContain(`at most ${licenceLimits.maxFilesPerUpload} files`);
      const next = await send(agent, url, { method: 'GET', path: apiPaths.licencePermission, headers: { token } });
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body)).toMatchObject({ code: 0 });
      // the same connection carried both: the rest of the refused body was read and dropped
      expect(refused.connection).toBe('keep-alive');
      expect(next.socketPort).toBe(refused.socketPort);
    } finally {
      agent.destroy();
    }
  });

  it('a body the parser never ends (a bare CR in a part header, 100 KB behind it) is refused, and the connection serves the next call', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = new URL(server.url);
      const boundary = 'campus-stuck-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a\rb.lic"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        Buffer.alloc(100_000, 'A'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const started = performance.now();
      const refused = await send(agent, url, {
        method: 'POST',
        path: apiPaths.licenceUpload,
        headers: { token, language: 'zh-CN', 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect(refused.status).toBe(400);
      const envelope = JSON.parse(refused.body) as { code: number; msg: string };
      expect(envelope.code).toBe(codes.badRequest);
      // on Node 20 the parser stops for good on this body (no part, no error, no end) and the server refuses it once the
      // grace has run out; on Node 24 the parser ends it without a part
      expect(envelope.msg).toMatch(/^请求参数不正确: (the multipart body cannot be read: its parts never end|body\/files must hold at least one file)$/);
      const next = await send(agent, url, { method: 'GET', path: apiPaths.licencePermission, headers: { token } });
      expect(next.status).toBe(200);
      expect(next.socketPort).toBe(refused.socketPort);
      // answered once the grace ran out, not at some later timeout
      expect(performance.now() - started).toBeLessThan(parseGraceMs + 5_000);
    } finally {
      agent.destroy();
    }
  });

  it('a refused body of unknown length (chunked) closes its connection, and the next request gets a new one', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = new URL(server.url);
      const boundary = 'campus-chunked-boundary';
      const refused = await send(agent, url, {
        method: 'POST',
        path: apiPaths.licenceUpload,
        headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipart(2_000, boundary),
        chunked: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.connection).toBe('close');
      const next = await send(agent, url, { method: 'GET', path: apiPaths.licencePermission, headers: { token } });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
