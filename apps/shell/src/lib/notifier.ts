import type { Notifier } from './request.ts';

/**
 * The notifier outside antd's App context (the login page): antd's static message, loaded on first use
 * so the login page's first load does not carry it.
 */
export const staticNotifier: Notifier = {
  error: (text) => {
    void import('antd/es/message').then(({ default: message }) => {
      void message.error(text);
    });
  },
};
