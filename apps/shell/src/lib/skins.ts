import type { CSSProperties } from 'react';
import type { ThemeConfig } from 'antd';
import type { SkinCode } from '@campus/contracts';
import { defaultSkin, isSkinCode } from '@campus/contracts';
import { readableColors } from './readable-colors.ts';

/** Colours of the layout chrome that antd tokens do not cover (header and side bar). */
export interface SkinChrome {
  headerBg: string;
  headerText: string;
  siderBg: string;
  /** The header's systems: light text on the dark header, or dark text on the light one. */
  menuTheme: 'dark' | 'light';
  /** Behind the current page in the side menu: the primary colour on it keeps 4.5:1 (antd's colorPrimaryBg). */
  selectedBg: string;
}

interface Skin {
  theme: ThemeConfig;
  chrome: SkinChrome;
}

/**
 * Tokens every skin shares so text and controls stay readable (WCAG 2.1 AA, checked by axe-core in the browser
 * tests): secondary text and placeholders at 0.6 black (5.7:1 on white, where antd's 0.45 and 0.25 give 3.4:1 and 1.9:1). Each skin's primary colour
 * is chosen for at least 4.5:1 with white text and on its own light selection background, and its focus ring
 * (colorPrimaryBorder) for at least 3:1 on white. Links take the primary colour too (antd's own link blue is a
 * seed of its own, 4.1:1 on the card screens' background). Under the pointer and pressed, the primary colour
 * darkens (antd's derived hover colour is lighter: white on #2e7ae6 is 4.16:1, issue 48 item 11).
 */
const readable = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
  // danger buttons (white on it), error and success text (on white): antd's lighter defaults fail 4.5:1
  colorError: readableColors.error,
  colorErrorHover: readableColors.errorHover,
  colorErrorActive: readableColors.errorActive,
  colorSuccess: readableColors.success,
  colorWarning: readableColors.warning,
} as const;

/**
 * The three skins of spec §2, chosen per tenant (TenantSettings.skin): DASUI001 the classic dark-blue
 * header, DASUI003 teal, DASUI004 a light header with a violet accent.
 */
const skins: Record<SkinCode, Skin> = {
  DASUI001: {
    theme: { token: { ...readable, colorPrimary: '#0958d9', colorPrimaryHover: '#003eb3', colorPrimaryActive: '#002c8c', colorLink: '#0958d9', colorPrimaryBorder: '#4d84ee', borderRadius: 6 } },
    chrome: { headerBg: '#001529', headerText: '#ffffff', siderBg: '#ffffff', menuTheme: 'dark', selectedBg: '#e6f4ff' },
  },
  DASUI003: {
    theme: { token: { ...readable, colorPrimary: '#08797c', colorPrimaryHover: '#06605f', colorPrimaryActive: '#044a49', colorLink: '#08797c', colorPrimaryBorder: '#2f8f91', borderRadius: 4 } },
    chrome: { headerBg: '#08383f', headerText: '#ffffff', siderBg: '#f4fbfb', menuTheme: 'dark', selectedBg: '#e6f5f5' },
  },
  DASUI004: {
    theme: { token: { ...readable, colorPrimary: '#722ed1', colorPrimaryHover: '#531dab', colorPrimaryActive: '#391085', colorLink: '#722ed1', colorPrimaryBorder: '#8c55dc', borderRadius: 8 } },
    chrome: { headerBg: '#ffffff', headerText: 'rgba(0, 0, 0, 0.88)', siderBg: '#faf7ff', menuTheme: 'light', selectedBg: '#f3e9ff' },
  },
};

/** The theme of screens shown before a tenant is known (the login page's dialogs): the default skin's. */
export const beforeSignInTheme: ThemeConfig = skins[defaultSkin].theme;

export function skinOf(code: unknown): Skin & { code: SkinCode } {
  const chosen = isSkinCode(code) ? code : defaultSkin;
  return { code: chosen, ...skins[chosen] };
}

/** The skin's colours for the layout's own CSS (its navigation), as custom properties on the layout's root. */
export function skinVariables(skin: Skin): CSSProperties {
  return { '--campus-primary': skin.theme.token?.colorPrimary, '--campus-nav-selected-bg': skin.chrome.selectedBg } as CSSProperties;
}
