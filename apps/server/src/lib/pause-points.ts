/**
 * The crash-test seam (apps/server/test/ops/crash-recovery.test.ts). A test cannot kill a server "in the middle of" a
 * licence activation or a card confirm by chance: those last milliseconds. So the flows name the moments that
 * matter, each inside its transaction after the first of its writes, and `TEST_PAUSE_AT=<point>` (only with
 * NODE_ENV=test, see config.ts) makes the server stop there: it writes `TEST_PAUSE_AT: paused at <point>` to stderr
 * and never goes on, so the test kills it with SIGKILL at exactly that moment and checks what a restart finds.
 *
 * Unarmed (always in production: the server refuses to start with the variable set), pauseAt is one comparison.
 * A point pauses once per process.
 */
export const pausePoints = [
  /** LicenceService.activate: the licence in effect is marked replaced, the new one not yet in effect. */
  'licence.activate',
  /** PasswordChangeService.change: the new hash is written, the sessions not yet ended nor the change logged. */
  'password.change',
  /** Card password change, phase two: the card's new issue number and password written, its sessions not yet ended. */
  'cardPassword.confirm',
  /** An administrator card issue (set-up or card management), phase two: the card is recorded, not yet logged. */
  'adminCard.issue',
  /** An administrator card recycle, phase two: the card is recycled (30), its sessions not yet ended. */
  'adminCard.recycle',
  /** System initialisation, phase two: the installation is stored, the customer number not yet adopted nor logged. */
  'system.init',
] as const;

export type PausePoint = (typeof pausePoints)[number];

export function isPausePoint(value: string): value is PausePoint {
  return (pausePoints as readonly string[]).includes(value);
}

let armed: PausePoint | null = null;

/** Arms one point for this process (main.ts, from TEST_PAUSE_AT); null disarms. */
export function armPausePoint(point: PausePoint | null): void {
  armed = point;
}

/** Does nothing unless `point` is armed; then says so on stderr and never resolves (the test kills the process). */
export async function pauseAt(point: PausePoint): Promise<void> {
  if (armed !== point) return;
  armed = null;
  process.stderr.write(`TEST_PAUSE_AT: paused at ${point} (pid ${process.pid})\n`);
  await new Promise<never>(() => undefined);
}
