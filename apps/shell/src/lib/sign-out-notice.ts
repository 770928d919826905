/**
 * Why the last session ended, for the login page to say once (an i18n key). Kept in sessionStorage: it is for this
 * tab's next visit to /login only, and survives the navigation there.
 */
const key = 'campus.signOutNotice';

export function setSignOutNotice(messageKey: string): void {
  try {
    sessionStorage.setItem(key, messageKey);
  } catch {
    // storage disabled: the login page opens without the notice
  }
}

export function peekSignOutNotice(): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function forgetSignOutNotice(): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // nothing stored
  }
}
