import { createElement } from 'react';
import type { MessageInstance } from 'antd/es/message/interface';
import type { Notifier } from './request.ts';
import { prefersReducedMotion } from './reduced-motion.ts';

let staticMessage: Promise<MessageInstance> | null = null;

/** antd's static message, loaded on first use and set up once. */
function loadStaticMessage(): Promise<MessageInstance> {
  staticMessage ??= Promise.all([import('antd/es/message'), import('antd/es/config-provider')]).then(([{ default: message }, { default: ConfigProvider }]) => {
    // "less motion" holds here too (read at each message): with antd's animation on, the message waited for a
    // transition that global.css cuts to nothing, and never left the screen
    ConfigProvider.config({ holderRender: (children) => createElement(ConfigProvider, { theme: { token: { motion: !prefersReducedMotion() } } }, children) });
    return message;
  });
  // a failed load (a new deployment's missing chunk) is tried again at the next message
  staticMessage.catch(() => {
    staticMessage = null;
  });
  return staticMessage;
}

/**
 * The notifier outside antd's App context (the login page): antd's static message, loaded on first use
 * so the login page's first load does not carry it.
 */
export const staticNotifier: Notifier = {
  error: (text) => {
    loadStaticMessage().then(
      (message) => void message.error(text),
      () => undefined, // nothing to show it with; the form's own message stays on the page
    );
  },
};
