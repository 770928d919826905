import type { VersionEntry } from '@campus/contracts';

/** 'One Click Copying' (spec §2): every row as plain text, one line each, node, program and version separated by tabs. */
export function versionsAsText(rows: VersionEntry[]): string {
  return rows.map((row) => `${row.address}\t${row.serviceName}\t${row.version}`).join('\n');
}

/** The refresh spinner shows at least this long (spec §9 "Version refresh spinner 1 s"). */
export const minimumSpinMs = 1000;

/** Resolves with `work` once it has settled and at least `ms` have passed; rejects as `work` does, also after `ms`. */
export async function atLeast<T>(work: Promise<T>, ms: number): Promise<T> {
  const wait = new Promise<void>((resolve) => setTimeout(resolve, ms));
  const [settled] = await Promise.all([work.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error })), wait]);
  if (!settled.ok) throw settled.error;
  return settled.value;
}
