/** Where the browser tests find the server they started (see playwright.config.ts). */
export const e2ePort = Number(process.env.E2E_PORT ?? 6391);
export const baseURL = `http://127.0.0.1:${e2ePort}`;
/** The image code the test server draws (NODE_ENV=test only). */
export const captchaText = process.env.TEST_CAPTCHA_TEXT ?? 'K7PX';
