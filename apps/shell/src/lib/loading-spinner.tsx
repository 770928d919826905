import { useEffect, useState } from 'react';

/** A wait shorter than this shows no spinner: a quick load flashes nothing. */
export const spinnerDelayMs = 300;

/**
 * The shell's spinner for a wait (a page, the signing-in screen, a sub-application loading), drawn only once the
 * wait has lasted `spinnerDelayMs`; until then an invisible box of the same size holds its place, so nothing
 * moves when it appears. It turns in steps (global.css): on a machine that composites the screen on the CPU
 * (a phone's slow cores, a thin client, a virtual desktop) every frame of a smooth spinner took CPU from the
 * loading it waited for (issue 27). Decorative: whatever shows it says what is loading.
 */
export function LoadingSpinner({ delayMs = spinnerDelayMs }: { delayMs?: number }) {
  const [shown, setShown] = useState(delayMs <= 0);
  useEffect(() => {
    if (shown) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs, shown]);
  return <span className={`campus-spinner campus-spinner--dark${shown ? '' : ' campus-spinner--waiting'}`} aria-hidden="true" />;
}
