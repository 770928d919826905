import { create } from 'zustand';

/**
 * Which account dialog is open. The layout's user menu opens them; the app layer renders them
 * (features never import each other, so they meet here).
 */
export interface AccountDialogsState {
  /** Change Password: null when closed; `forced` hides every way to cancel (spec §4 reading A). */
  changePassword: { forced: boolean; notice: string | null } | null;
  about: boolean;
  /** Backup Logs viewer (private deployments). */
  backupLogs: boolean;
}

export const useAccountDialogs = create<AccountDialogsState>(() => ({ changePassword: null, about: false, backupLogs: false }));

export function openChangePassword(options: { forced?: boolean; notice?: string | null } = {}): void {
  useAccountDialogs.setState({ changePassword: { forced: options.forced ?? false, notice: options.notice ?? null } });
}

export function closeChangePassword(): void {
  useAccountDialogs.setState({ changePassword: null });
}

export function openAbout(): void {
  useAccountDialogs.setState({ about: true });
}

export function closeAbout(): void {
  useAccountDialogs.setState({ about: false });
}

export function openBackupLogs(): void {
  useAccountDialogs.setState({ backupLogs: true });
}

export function closeBackupLogs(): void {
  useAccountDialogs.setState({ backupLogs: false });
}
