import { create } from 'zustand';
import { onSignOut } from '../../lib/session.ts';

/** How Change Password is shown: `forced` hides every way to cancel (spec §4 reading A). */
export interface ChangePasswordRequest {
  forced: boolean;
  notice: string | null;
}

/**
 * Whether Change Password is open (null when closed). The account feature's own dialog: others (the user
 * menu, a sub-app's changePwd) open it through the callback the app layer hands them.
 */
export const useChangePasswordDialog = create<{ open: ChangePasswordRequest | null }>(() => ({ open: null }));

export function openChangePassword(options: { forced?: boolean; notice?: string | null } = {}): void {
  useChangePasswordDialog.setState({ open: { forced: options.forced ?? false, notice: options.notice ?? null } });
}

export function closeChangePassword(): void {
  useChangePasswordDialog.setState({ open: null });
}

onSignOut(closeChangePassword);
