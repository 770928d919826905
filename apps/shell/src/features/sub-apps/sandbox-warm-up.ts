/**
 * The loader's sandbox, when it is made for the first sub-app, reads the descriptor of every property of
 * `window`. The first such read of a property makes the browser build that interface object (HTMLElement,
 * Range, ...), about a thousand of them: 20 ms at once on a fast machine, 90 ms and more on a mid-range phone,
 * in the middle of the first mount. Reading them beforehand, a few milliseconds at a time while the page is
 * otherwise idle, leaves the sandbox only the cheap second read.
 */
const sliceMs = 4;
let started = false;

/** Starts the warm-up once; it yields to the page between slices. */
export function warmWindowForSandbox(target: Window = window): Promise<void> {
  if (started) return Promise.resolve();
  started = true;
  const names = Object.getOwnPropertyNames(target);
  let next = 0;
  return new Promise((resolve) => {
    const slice = () => {
      const until = performance.now() + sliceMs;
      while (next < names.length && performance.now() < until) Object.getOwnPropertyDescriptor(target, names[next++]!);
      if (next < names.length) setTimeout(slice, 0);
      else resolve();
    };
    setTimeout(slice, 0);
  });
}

/** For tests: allow another warm-up. */
export function resetSandboxWarmUp(): void {
  started = false;
}
