/**
 * Whether a database error is a unique-constraint violation (a primary key's included): PostgreSQL 23505, SQLite's
 * SQLITE_CONSTRAINT_UNIQUE (2067) and SQLITE_CONSTRAINT_PRIMARYKEY (1555).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // better-sqlite3 names the code; node:sqlite gives the extended result code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || errcode === 2067 || errcode === 1555;
}

/**
 * Whether a unique violation is one of an index on `column`: PostgreSQL names the index (the project's index names
 * name their column), SQLite the indexed columns ("UNIQUE constraint failed: table.column").
 */
export function isUniqueViolationOf(error: unknown, column: string): boolean {
  if (!isUniqueViolation(error)) return false;
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  return `${String(constraint ?? '')} ${String(message ?? '')}`.includes(column);
}

/** Runs a write that a unique index may refuse, answering `refusal(error)` instead of the database's error. */
export async function refusingDuplicates<T>(write: () => Promise<T>, refusal: (error: unknown) => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw refusal(error);
    throw error;
  }
}
