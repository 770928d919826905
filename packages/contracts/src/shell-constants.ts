/** Numbers fixed by the specification (§9) that both server and shell use. */
export const shellVersion = '3.5.7.24112701';
export const defaultServicePort = 6300;
export const requestTimeoutMs = 30_000;
export const defaultHomePath = '/qy/homePage';
/** Lock-out (DESIGN §5). */
export const lockout = {
  captchaAfterFailures: 3,
  lockAfterFailures: 5,
  /** Successive lock lengths in minutes; the last repeats. */
  lockMinutes: [1, 5, 15],
} as const;
export const captchaTtlSeconds = 120;
