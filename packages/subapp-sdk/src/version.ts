/**
 * This SDK's version (package.json's, checked by a test). A sub-app reports it to the shell at bootstrap: a shell
 * mounts a sub-app only when it speaks the same major version of the contract and at least the sub-app's minor one
 * (a newer minor version may call props this shell does not give).
 */
export const sdkVersion = '1.1.0';
