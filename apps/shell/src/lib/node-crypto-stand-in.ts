/**
 * What the browser build gives for Node's `crypto`. sm-crypto-v2 imports it only when the page has no
 * `globalThis.crypto`, which every browser the shell supports has; without this stand-in the build would leave
 * the import to the browser and warn that `crypto` is externalized.
 */
export const webcrypto = globalThis.crypto;
export default { webcrypto };
