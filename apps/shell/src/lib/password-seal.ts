/**
 * Seals a password to the server's SM2 public key (PasswordComplexity.sealKey): SM2 encryption, cipher
 * mode 1 (C1C3C2), hex output. The server decrypts it to check the policy itself, so the password never
 * crosses a plain-http intranet in clear. sm-crypto-v2 loads on first use, out of the first-load bundle.
 */
export async function sealPassword(password: string, sealKeyHex: string): Promise<string> {
  const { sm2 } = await import('sm-crypto-v2');
  return sm2.doEncrypt(password, sealKeyHex, 1);
}
