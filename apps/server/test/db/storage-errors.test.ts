import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { codeMessages, codes } from '@campus/contracts';
import { isDatabaseUnavailable, isSqliteBusy, isStorageFull } from '../../src/db/unavailable.ts';
import { errorHandler } from '../../src/http/errors.ts';
import { StorageWatch } from '../../src/lib/storage-watch.ts';
import { tempDir } from '../support/helpers.ts';

describe('storage full is told apart from unavailable', () => {
  const full = [
    Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
    Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 }),
    Object.assign(new Error('could not extend file'), { code: '53100' }),
    Object.assign(new Error('no space left on device'), { code: 'ENOSPC', path: '/data/oss/x' }),
    new Error('migration failed', { cause: Object.assign(new Error('full'), { code: 'SQLITE_FULL' }) }),
  ];
  it('maps SQLITE_FULL (both drivers), SQLSTATE 53100 and ENOSPC to storage full, not unavailable', () => {
    for (const error of full) {
      expect(isStorageFull(error), error.message).toBe(true);
      expect(isDatabaseUnavailable(error), error.message).toBe(false);
    }
  });
  it('leaves the unavailable ones alone', () => {
    for (const error of [Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }), Object.assign(new Error('x'), { code: '57P01' }), Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]) {
      expect(isStorageFull(error)).toBe(false);
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it('a SQLite file busy with another process (both drivers, wrapped by a migration) is told from one that cannot be opened', () => {
    const busy = [
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }),
      Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }),
      Object.assign(new Error('database table is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 6 + 256 }),
      new Error('Database migration failed', { cause: Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }) }),
    ];
    for (const error of busy) expect(isSqliteBusy(error), error.message).toBe(true);
    const notBusy = [
      Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' }),
      Object.assign(new Error('disk I/O error'), { code: 'ERR_SQLITE_ERROR', errcode: 10 }),
      ...full,
    ];
    for (const error of notBusy) expect(isSqliteBusy(error), error.message).toBe(false);
  });

  it('has an en-US, zh-CN and zh-MO message telling the user to tell the administrator', () => {
    const messages = codeMessages[codes.storageFull];
    expect(messages['en-US']).toMatch(/storage is full.*administrator/);
    expect(messages['zh-CN']).toContain('管理员');
    expect(messages['zh-MO']).toContain('管理員');
  });

  describe('the error handler', () => {
    const logged: string[] = [];
    const app = Fastify({ logger: false });
    const dataDir = tempDir();
    const watch = new StorageWatch(dataDir, (where) => logged.push(where), path.join(dataDir, 'campus.db'));
    app.decorate('storageWatch', watch);
    app.setErrorHandler(errorHandler);
    app.addHook('onRequest', async (request) => {
      (request as { lang?: string }).lang = 'en-US';
    });
    app.get('/full', async () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC', path: '/data/oss/file' });
    });
    app.get('/database-full', async () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 });
    });
    afterAll(() => app.close());

    it('answers 507 storageFull and logs the path once, not once per request', async () => {
      for (let i = 0; i < 3; i += 1) {
        const reply = await app.inject({ method: 'GET', url: '/full' });
        expect(reply.statusCode).toBe(507);
        expect(reply.json()).toMatchObject({ code: codes.storageFull, msg: codeMessages[codes.storageFull]['en-US'] });
      }
      expect(logged).toEqual(['/data/oss/file']);
      // the watch finds space again (a probe write succeeds): the next full is logged again
      expect((await watch.status()).full).toBeNull();
      await app.inject({ method: 'GET', url: '/full' });
      expect(logged).toEqual(['/data/oss/file', '/data/oss/file']);
    });

    it('a full database is named by its path, the SQLite file (issue 48 item 6: it said "the database")', async () => {
      await watch.status();
      logged.length = 0;
      const reply = await app.inject({ method: 'GET', url: '/database-full' });
      expect(reply.statusCode).toBe(507);
      expect(logged).toEqual([path.join(dataDir, 'campus.db')]);
      await watch.status();
    });
  });
});
