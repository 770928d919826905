/**
 * Code the user will need after signing in, fetched and run while they are still typing, so the layout
 * paints soon after Login is clicked. It starts on the first input or pointer press in the login form, not
 * on load, so the login page itself stays light. The app layer registers the loaders (features do not
 * know routes).
 */
const loaders: (() => Promise<unknown>)[] = [];
let started = false;

export function registerWarmUp(...load: (() => Promise<unknown>)[]): void {
  loaders.push(...load);
}

/** Starts loading once; failures are ignored (the route loads its code again when it is needed). */
export function warmUpSignedInCode(): void {
  if (started) return;
  started = true;
  for (const load of loaders) void load().catch(() => undefined);
}
