import { createContext, useContext } from 'react';
import type { ShellLanguage, ShellProps } from '@campus/subapp-sdk';
import type { Translate } from './i18n.ts';

/** What every page reads: the shell's props, the current language and its texts. */
export interface Qy {
  props: ShellProps;
  language: ShellLanguage;
  t: Translate;
}

export const QyContext = createContext<Qy | null>(null);

export function useQy(): Qy {
  const qy = useContext(QyContext);
  if (!qy) throw new Error('useQy outside the sub-app');
  return qy;
}
