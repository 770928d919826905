import type { ThemeConfig } from 'antd';
import type { SkinCode } from '@campus/contracts';
import { defaultSkin, isSkinCode } from '@campus/contracts';

/** Colours of the layout chrome that antd tokens do not cover (header and side bar). */
export interface SkinChrome {
  headerBg: string;
  headerText: string;
  siderBg: string;
  /** antd Menu theme of the header's system menu. */
  menuTheme: 'dark' | 'light';
}

interface Skin {
  theme: ThemeConfig;
  chrome: SkinChrome;
}

/**
 * The three skins of spec §2, chosen per tenant (TenantSettings.skin): DASUI001 the classic dark-blue
 * header, DASUI003 teal, DASUI004 a light header with a violet accent.
 */
const skins: Record<SkinCode, Skin> = {
  DASUI001: {
    theme: { token: { colorPrimary: '#1677ff', borderRadius: 6 }, components: { Menu: { darkItemBg: '#001529', darkSubMenuItemBg: '#000c17' } } },
    chrome: { headerBg: '#001529', headerText: '#ffffff', siderBg: '#ffffff', menuTheme: 'dark' },
  },
  DASUI003: {
    theme: { token: { colorPrimary: '#13a8a8', borderRadius: 4 }, components: { Menu: { darkItemBg: '#08383f', darkSubMenuItemBg: '#052a30', darkItemSelectedBg: '#13a8a8' } } },
    chrome: { headerBg: '#08383f', headerText: '#ffffff', siderBg: '#f4fbfb', menuTheme: 'dark' },
  },
  DASUI004: {
    theme: { token: { colorPrimary: '#722ed1', borderRadius: 8 }, components: { Menu: { darkItemBg: '#ffffff' } } },
    chrome: { headerBg: '#ffffff', headerText: 'rgba(0, 0, 0, 0.88)', siderBg: '#faf7ff', menuTheme: 'light' },
  },
};

export function skinOf(code: unknown): Skin & { code: SkinCode } {
  const chosen = isSkinCode(code) ? code : defaultSkin;
  return { code: chosen, ...skins[chosen] };
}
