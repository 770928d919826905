import { create } from 'zustand';
import { onSignOut } from '../../lib/session.ts';

/** Whether the Backup Logs viewer (private deployments) is open; the user menu opens it through the app layer. */
export const useBackupLogDialog = create<{ open: boolean }>(() => ({ open: false }));

export function openBackupLogs(): void {
  useBackupLogDialog.setState({ open: true });
}

export function closeBackupLogs(): void {
  useBackupLogDialog.setState({ open: false });
}

onSignOut(closeBackupLogs);
