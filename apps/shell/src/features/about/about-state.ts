import { create } from 'zustand';
import { onSignOut } from '../../lib/session.ts';

export type AboutTab = 'versions' | 'licences';

/** About System: open or not, and its tab (Version Info, or Licenses when a licence prompt opened it). */
export interface AboutDialogState {
  open: boolean;
  tab: AboutTab;
}

const closed: AboutDialogState = { open: false, tab: 'versions' };

export const useAboutDialog = create<AboutDialogState>(() => ({ ...closed }));

/** About System opened on `tab`: Version Info from the user menu, Licenses from a licence prompt's 'view details'. */
export function openAbout(tab: AboutTab = 'versions'): void {
  useAboutDialog.setState({ open: true, tab });
}

export function setAboutTab(tab: AboutTab): void {
  useAboutDialog.setState({ tab });
}

/** About System closed; it opens on Version Info next time. */
export function closeAbout(): void {
  useAboutDialog.setState({ ...closed });
}

onSignOut(closeAbout);
