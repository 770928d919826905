import { create } from 'zustand';
import { onSignOut } from '../../lib/session.ts';

/**
 * Which licence dialog is open (spec §2 "Modals"): upload, activation of one licence, trial registration.
 * The licence prompt and the Licenses tab open them.
 */
export interface LicenceDialogsState {
  upload: boolean;
  /** The id of the licence being activated; null when closed. */
  activation: string | null;
  trial: boolean;
}

const closed: LicenceDialogsState = { upload: false, activation: null, trial: false };

export const useLicenceDialogs = create<LicenceDialogsState>(() => ({ ...closed }));

/** True while one of the licence dialogs is shown. */
export const anyLicenceDialogOpen = (state: LicenceDialogsState): boolean => state.upload || state.trial || state.activation !== null;

export function openLicenceUpload(): void {
  useLicenceDialogs.setState({ upload: true });
}

export function closeLicenceUpload(): void {
  useLicenceDialogs.setState({ upload: false });
}

/** Activation of one licence; the upload dialog it may come from closes. */
export function openActivation(id: string): void {
  useLicenceDialogs.setState({ activation: id, upload: false });
}

export function closeActivation(): void {
  useLicenceDialogs.setState({ activation: null });
}

export function openTrial(): void {
  useLicenceDialogs.setState({ trial: true });
}

export function closeTrial(): void {
  useLicenceDialogs.setState({ trial: false });
}

/** For tests and sign-out: every licence dialog closed. */
export function resetLicenceDialogs(): void {
  useLicenceDialogs.setState({ ...closed });
}

onSignOut(resetLicenceDialogs);
