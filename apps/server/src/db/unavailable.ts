import { isOutdatedPlan } from './prepared-statements.ts';

/**
 * Whether an error says the database cannot be used right now (as opposed to a bug or a refused statement): the
 * request is answered 503 serviceUnavailable and the caller may try again; the server recovers by itself once the
 * database answers (the pool opens new connections on demand).
 *
 * PostgreSQL: connection exceptions (SQLSTATE class 08), admin / crash shutdown and "the database system is
 * starting up" (57P01, 57P02, 57P03), a dropped database (57P04), no free connection slot (53300), a statement
 * cancelled by statement_timeout (57014); the network errors of a refused, reset or timed-out connection; and the
 * pg client's and pool's own words for a connection that ended or could not be had in time.
 * A prepared statement that another node's migration outdated (prepared-statements.ts) inside a transaction: the
 * connection is closed, and the next try runs on a fresh one.
 * SQLite: the file busy or locked beyond busy_timeout, an I/O error, a file that cannot be opened.
 * A full disk is not "unavailable": it is isStorageFull (507 storageFull; waiting does not help, freeing space does).
 */
const pgStates = new Set(['57P01', '57P02', '57P03', '57P04', '53300', '57014']);
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);
const clientMessages = [
  'Connection terminated', // "… unexpectedly", "… due to connection timeout"
  'timeout exceeded when trying to connect', // pg-pool: no connection within connectionTimeoutMillis
  'Query read timeout', // pg: no answer within query_timeout
  'is not queryable', // pg: a client whose connection failed or was closed
  'Cannot use a pool after calling end on the pool',
  'driver has already been destroyed', // Kysely, while the server shuts down
];
/** SQLite primary result codes: BUSY, LOCKED, IOERR, CANTOPEN. */
const sqlitePrimaryCodes = new Set([5, 6, 10, 14]);
const sqliteCodeNames = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN)(_|$)/;
/** SQLite's primary result code SQLITE_FULL. */
const sqliteFull = 13;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  if (isOutdatedPlan(error)) return true;
  const { code, errcode, message, errors, cause } = error as { code?: unknown; errcode?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (pgStates.has(code) || networkCodes.has(code) || sqliteCodeNames.test(code)) return true;
  }
  // node:sqlite gives the extended result code; its low byte is the primary one
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && sqlitePrimaryCodes.has(errcode & 0xff)) return true;
  if (typeof message === 'string' && clientMessages.some((words) => message.includes(words))) return true;
  // a connection tried on several addresses (localhost: ::1 and 127.0.0.1) fails with all their errors
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  // an error that wraps one (a failed migration)
  return isDatabaseUnavailable(cause, depth + 1);
}

/**
 * Whether an error says the storage is full: SQLite SQLITE_FULL (better-sqlite3's code, or node:sqlite's errcode 13
 * in its low byte), PostgreSQL SQLSTATE 53100 disk_full, and ENOSPC of a file write (uploads, oss). The request is
 * answered 507 storageFull; the server stays not ready until space returns (lib/storage-watch.ts).
 */
export function isStorageFull(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, errcode, cause } = error as { code?: unknown; errcode?: unknown; cause?: unknown };
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return true;
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && (errcode & 0xff) === sqliteFull) return true;
  return isStorageFull(cause, depth + 1);
}

/** SQLite's primary result codes BUSY and LOCKED. */
const sqliteBusyCodes = new Set([5, 6]);

/**
 * Whether SQLite refused because another process on the same file was writing (busy or locked: a backup's Backup
 * Log row, another node's start). Unlike a file that cannot be opened, this passes once that write is done.
 */
export function isSqliteBusy(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, errcode, cause } = error as { code?: unknown; errcode?: unknown; cause?: unknown };
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && sqliteBusyCodes.has(errcode & 0xff)) return true;
  return isSqliteBusy(cause, depth + 1);
}
