import { useEffect, useState } from 'react';

/** A wait shorter than this shows no spinner: a quick load flashes nothing. */
export const spinnerDelayMs = 300;

/**
 * The shell's spinner for a wait (a page, the signing-in screen, a sub-application loading), drawn only once the
 * wait has lasted `spinnerDelayMs`; until then an invisible box of the same size holds its place, so nothing
 * moves when it appears. It turns in steps (global.css): where the screen is composited on the CPU (Chromium
 * without a GPU, as under Lighthouse here; thin clients, virtual desktops) every frame of a smooth spinner took
 * CPU from the loading it waited for (issue 27). Decorative: what shows it marks the wait (aria-busy, a status).
 */
export function LoadingSpinner() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), spinnerDelayMs);
    return () => clearTimeout(timer);
  }, []);
  return <span className={`campus-spinner campus-spinner--dark${shown ? '' : ' campus-spinner--waiting'}`} aria-hidden="true" />;
}

/** A whole page that is still loading: the spinner in its middle, the page marked busy. */
export function PageSpinner() {
  return (
    <div className="campus-centered" aria-busy="true">
      <LoadingSpinner />
    </div>
  );
}
