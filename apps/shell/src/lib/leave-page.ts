/**
 * The browser leaves the shell for another address, a full navigation (not the router): an identity provider's
 * sign-in (the server's Start answers 302 to it) or its logout. One place, so tests can stand in for it.
 */
export function leavePage(url: string): void {
  window.location.assign(url);
}
