import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RotatingLog } from '../src/windows/rotating-log.ts';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});
const logIn = (options: ConstructorParameters<typeof RotatingLog>[1] = {}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-log-'));
  dirs.push(dir);
  return new RotatingLog(path.join(dir, 'logs', 'issuer.log'), { now: () => new Date('2026-12-01T08:00:00.000Z'), ...options });
};
const filesOf = (log: RotatingLog) =>
  fs
    .readdirSync(path.dirname(log.file))
    .sort()
    .map((name) => ({ name, size: fs.statSync(path.join(path.dirname(log.file), name)).size }));

describe('the service log (rotated by size)', () => {
  it('writes time-stamped lines, making its folder', () => {
    const log = logIn();
    log.line('service', 'Card issuer started (process 42)');
    log.close();
    expect(fs.readFileSync(log.file, 'utf8')).toBe('2026-12-01T08:00:00.000Z [service] Card issuer started (process 42)\r\n');
  });

  it('never holds more than files × maxBytes: the oldest file goes, issuer.log.1 is the one before the current', () => {
    const log = logIn({ maxBytes: 1024, files: 3 });
    for (let n = 0; n < 200; n++) log.line('issuer', `line ${String(n).padStart(3, '0')} ${'x'.repeat(40)}`);
    log.close();
    const files = filesOf(log);
    expect(files.map((file) => file.name)).toEqual(['issuer.log', 'issuer.log.1', 'issuer.log.2']);
    for (const file of files) expect(file.size).toBeLessThanOrEqual(1024);
    const current = fs.readFileSync(log.file, 'utf8');
    const previous = fs.readFileSync(`${log.file}.1`, 'utf8');
    expect(current.trimEnd().split('\r\n').at(-1)).toContain('line 199');
    const lastOfPrevious = Number(/line (\d+)/.exec(previous.trimEnd().split('\r\n').at(-1)!)![1]);
    const firstOfCurrent = Number(/line (\d+)/.exec(current.split('\r\n')[0]!)![1]);
    expect(firstOfCurrent).toBe(lastOfPrevious + 1);
    // whole lines only when they fit: each file starts with a time stamp
    for (const file of files) expect(fs.readFileSync(path.join(path.dirname(log.file), file.name), 'utf8')).toMatch(/^2026-12-01T08:00:00\.000Z \[issuer\] line/);
  });

  it('goes on after a restart of the service: appends to the file there, and rotates it when full', () => {
    const first = logIn({ maxBytes: 512, files: 2 });
    first.line('service', 'a'.repeat(300));
    first.close();
    const second = new RotatingLog(first.file, { maxBytes: 512, files: 2 });
    second.line('service', 'b'.repeat(300));
    second.close();
    expect(fs.readFileSync(`${first.file}.1`, 'utf8')).toContain('a'.repeat(300));
    expect(fs.readFileSync(first.file, 'utf8')).toContain('b'.repeat(300));
  });

  it('cuts a line longer than a whole file into pieces instead of growing past the bound', () => {
    const log = logIn({ maxBytes: 256, files: 5 });
    log.line('issuer', 'y'.repeat(1000));
    log.close();
    const files = filesOf(log);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) expect(file.size).toBeLessThanOrEqual(256);
  });

  it('writes a stream chunk by chunk as whole lines, the unfinished end when the stream ends', () => {
    const log = logIn();
    log.chunk('issuer', 'Card issuer: http://127.0.0.1:18085/ (Campus ');
    log.chunk('issuer', 'virtual reader)\nAnswers the shell at: http://127.0.0.1:6300\nhalf a li');
    log.chunk('issuer:err', 'an error\n');
    log.chunk('issuer', 'ne');
    log.flush('issuer');
    log.close();
    expect(fs.readFileSync(log.file, 'utf8').split('\r\n')).toEqual([
      '2026-12-01T08:00:00.000Z [issuer] Card issuer: http://127.0.0.1:18085/ (Campus virtual reader)',
      '2026-12-01T08:00:00.000Z [issuer] Answers the shell at: http://127.0.0.1:6300',
      '2026-12-01T08:00:00.000Z [issuer:err] an error',
      '2026-12-01T08:00:00.000Z [issuer] half a line',
      '',
    ]);
  });
});
