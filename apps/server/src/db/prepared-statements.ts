/**
 * PostgreSQL named prepared statements. Kysely sends every query as an unnamed statement, which PostgreSQL parses and
 * plans again each time; the server's queries come from a fixed set of shapes (values travel as parameters), so each
 * text gets a name once, and every connection parses it once, the first time it runs it, and then only binds and
 * executes it. Measured on one node under GetMenu load: a fifth more calls answered (bench/reports/latest.md).
 *
 * Off with DATABASE_PREPARED_STATEMENTS=off, for a connection pooler that hands one client's statements to other
 * server connections (PgBouncer in transaction mode before 1.21, or without max_prepared_statements).
 */

/** Texts named at the most, per process; past it a new text goes unnamed (a connection keeps every statement it prepared). */
const defaultLimit = 1_000;

export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = defaultLimit) {}

  /** The name of this statement text (the same for the life of the process), or null once the limit is reached. */
  nameOf(text: string): string | null {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= this.limit) return null;
    const name = `campus_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

/**
 * A prepared statement whose result columns changed since the connection prepared it (another server node migrated
 * the schema: a column added to a table read with `select *`). PostgreSQL refuses to run it again on that connection.
 */
export function isOutdatedPlan(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}
