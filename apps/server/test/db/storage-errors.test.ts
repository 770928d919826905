import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { codeMessages, codes } from '@campus/contracts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { isDatabaseUnavailable, isSqliteBusy, isStorageFull } from '../../src/db/unavailable.ts';
import { AppError } from '../../src/http/envelope.ts';
import { errorHandler } from '../../src/http/errors.ts';
import { countedCardOperation, metricsRegistry } from '../../src/lib/metrics.ts';
import { createRepeatFilter } from '../../src/lib/repeat-filter.ts';
import { StorageWatch } from '../../src/lib/storage-watch.ts';
import { fakeClock, tempDir } from '../support/helpers.ts';

describe('LOG_LEVEL', () => {
  it('defaults to info and takes each pino level in any case', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) expect(loadConfig({ LOG_LEVEL: level.toUpperCase() }).logLevel).toBe(level);
  });

  it('refuses anything else with a ConfigError naming LOG_LEVEL and the value', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/);
  });
});

describe('METRICS and METRICS_ALLOW', () => {
  it('are off and loopback-only by default; METRICS_ALLOW widens the loopback list', () => {
    const defaults = loadConfig({});
    expect(defaults.metrics).toBe(false);
    expect(defaults.metricsAllow).toEqual(['127.0.0.1', '::1']);
    expect(loadConfig({ METRICS: 'on', METRICS_ALLOW: ' 10.0.0.0/8 , 192.0.2.7' }).metricsAllow).toEqual(['127.0.0.1', '::1', '10.0.0.0/8', '192.0.2.7']);
  });

  it('refuses an item that is no address or range', () => {
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/8,everyone' })).toThrow(/METRICS_ALLOW .*"everyone" is none of these/);
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(ConfigError);
  });
});

describe('the repeated-error filter', () => {
  it('logs the first of a key, counts the repeats in the window, and reports their number with the next logged one', () => {
    const clock = fakeClock(0);
    const filter = createRepeatFilter(60_000, clock.now);
    expect(filter.admit('db down')).toEqual({ log: true, repeated: 0 });
    for (let i = 0; i < 1673; i += 1) expect(filter.admit('db down').log).toBe(false);
    // another key is its own
    expect(filter.admit('other')).toEqual({ log: true, repeated: 0 });
    clock.advance(60_000);
    expect(filter.admit('db down')).toEqual({ log: true, repeated: 1673 });
    expect(filter.admit('db down')).toEqual({ log: false, repeated: 0 });
    clock.advance(60_000);
    expect(filter.admit('db down')).toEqual({ log: true, repeated: 1 });
  });

  it('keeps a bounded number of keys', () => {
    const filter = createRepeatFilter(60_000, () => 0, 2);
    filter.admit('a');
    filter.admit('b');
    filter.admit('c'); // pushes out a
    expect(filter.admit('a').log).toBe(true);
    expect(filter.admit('c').log).toBe(false);
  });
});

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

describe('card operation metrics', () => {
  it('counts each operation by result: ok, refused (a business code) and failed (anything else)', async () => {
    await countedCardOperation('unit-test-op', async () => 'done');
    await expect(countedCardOperation('unit-test-op', async () => { throw new AppError(codes.cardUnknown); })).rejects.toBeInstanceOf(AppError);
    await expect(countedCardOperation('unit-test-op', async () => { throw new Error('reader unplugged'); })).rejects.toThrow('reader unplugged');
    const text = await metricsRegistry.getSingleMetricAsString('campus_card_operations_total');
    for (const result of ['ok', 'refused', 'failed']) expect(text).toContain(`campus_card_operations_total{operation="unit-test-op",result="${result}"} 1`);
  });
});
