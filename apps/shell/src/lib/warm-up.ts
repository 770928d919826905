/**
 * Code the user will need after signing in, fetched and run while they are still typing, so the layout
 * paints soon after Login is clicked. It starts on the first input or pointer press in the login form, not
 * on load, so the login page itself stays light. The app layer registers the loaders (features do not
 * know routes).
 */
const loaders: (() => Promise<unknown>)[] = [];
let started = false;

/**
 * Loaders registered once the warm-up has begun run at once: the router registers the layout's when it loads,
 * and on the standalone login page it loads as part of the warm-up (app/main.tsx).
 */
export function registerWarmUp(...load: (() => Promise<unknown>)[]): void {
  if (started) runAll(load);
  else loaders.push(...load);
}

/** Failures are ignored: the route loads its code again when it is needed. */
function runAll(load: readonly (() => Promise<unknown>)[]): void {
  for (const loader of load) void loader().catch(() => undefined);
}

/** Starts loading once. */
export function warmUpSignedInCode(): void {
  if (started) return;
  started = true;
  runAll(loaders);
}
