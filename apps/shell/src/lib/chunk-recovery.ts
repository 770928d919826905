/** When the page last reloaded itself for a missing file (sessionStorage: it counts for this browser tab). */
const reloadedAtKey = 'campus.chunkReloadAt';
/** A second failure this soon after a reload is not a new deployment: let the error show instead of looping. */
const quietMs = 10_000;

/**
 * A new deployment replaces the shell's hashed files while a page is open; the next lazy page then fails to
 * load its file. Vite reports that as `vite:preloadError`: load the page afresh (once), which fetches the
 * new index.html and its new files.
 */
export function installChunkRecovery(target: Window = window, now: () => number = Date.now): void {
  target.addEventListener('vite:preloadError', (event) => {
    let last = 0;
    try {
      last = Number(target.sessionStorage.getItem(reloadedAtKey) ?? 0);
      if (now() - last < quietMs) return;
      target.sessionStorage.setItem(reloadedAtKey, String(now()));
    } catch {
      return; // without storage there is no way to stop a reload loop
    }
    event.preventDefault();
    target.location.reload();
  });
}
