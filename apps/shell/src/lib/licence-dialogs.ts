import { create } from 'zustand';
import { closeAbout, openAbout } from './account-dialogs.ts';

export type AboutTab = 'versions' | 'licences';

/**
 * Which licence dialog is open (spec §2 "Modals"): upload, activation of one licence, trial registration,
 * and the tab About System opens on. The licence prompt and the About dialog open them; the app layer
 * renders them (features never import each other, so they meet here).
 */
export interface LicenceDialogsState {
  aboutTab: AboutTab;
  upload: boolean;
  /** The id of the licence being activated; null when closed. */
  activation: string | null;
  trial: boolean;
}

const closed: LicenceDialogsState = { aboutTab: 'versions', upload: false, activation: null, trial: false };

export const useLicenceDialogs = create<LicenceDialogsState>(() => ({ ...closed }));

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

export function setAboutTab(tab: AboutTab): void {
  useLicenceDialogs.setState({ aboutTab: tab });
}

/** About System opened on its Licenses tab (the prompt's 'view details'). */
export function openLicenceDetails(): void {
  setAboutTab('licences');
  openAbout();
}

/** About System closed; it opens on Version Info next time. */
export function closeAboutSystem(): void {
  closeAbout();
  setAboutTab('versions');
}

/** For tests and sign-out: every licence dialog closed. */
export function resetLicenceDialogs(): void {
  useLicenceDialogs.setState({ ...closed });
}
