/**
 * The status colours of the shell, chosen for at least 4.5:1 against white both ways (white text on them, they as
 * text on white; WCAG 2.1 AA, checked by axe in the browser tests). antd's own (#ff4d4f error 3.3:1, #52c41a success
 * 2.3:1) are lighter. skins.ts gives them to antd as its seeds; the few plain-CSS screens (the login page) write the
 * same values.
 */
export const readableColors = {
  /** Danger buttons, error text and icons: 5.6:1. */
  error: '#cf1322',
  /** A danger button under the pointer or pressed: darker still, never lighter than the resting one. */
  errorHover: '#a8071a',
  errorActive: '#820014',
  /** "Uploaded" and other success text and icons: 5.6:1. */
  success: '#237804',
  /** Warning icons and text: 4.4:1 (a graphic needs 3:1, WCAG 1.4.11). */
  warning: '#ad6800',
  /** Information icons and links: the default skin's primary, 6.2:1. */
  info: '#0958d9',
} as const;
