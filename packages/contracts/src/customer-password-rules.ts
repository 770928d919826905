/**
 * The customer password's rules at system initialisation (issue 46, item 4). It is the one secret between a copy of
 * the mother card or the system key card and the system key, and such a copy can be guessed offline at the pace of
 * the card's key derivation, so a short or common password is refused. The shell checks both on the text; the server
 * sees only the SM3 digest, so it checks the list (the digests of these texts) but cannot check the length.
 */
export const customerPasswordMinLength = 10;

/** Passwords guessers try first (written for this product from well-known lists of leaked passwords' top entries). */
const commonPasswords: readonly string[] = [
  '123456', '12345678', '123456789', '1234567890', '0123456789', '9876543210', '987654321', '12345', '1234', '1234567',
  '111111', '11111111', '1111111111', '000000', '00000000', '0000000000', '666666', '888888', '88888888', '5201314',
  '123123', '123321', '654321', '112233', '121212', '131313', '159753', '7777777', '555555', 'aaaaaa',
  'password', 'password1', 'password12', 'password123', 'password1234', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'p@ssw0rd123', 'password@123',
  'qwerty', 'qwerty123', 'qwerty1234', 'qwerty12345', 'qwertyuiop', 'qwer1234', 'qwe123', '123qwe', 'asdfgh', 'asdfghjkl',
  'zxcvbn', 'zxcvbnm', '1qaz2wsx', '1qaz2wsx3edc', '1q2w3e4r', '1q2w3e4r5t', 'qazwsx', 'qazwsxedc', 'abc123', 'abc12345',
  'abcd1234', 'abc1234567', 'a123456', 'a12345678', 'aa123456', 'aa12345678', 'aa123456789', 'qq123456', '123456a', '123456789a',
  'admin', 'admin123', 'admin1234', 'admin12345', 'admin@123', 'admin@1234', 'admin@12345', 'administrator', 'root', 'root123',
  'welcome', 'welcome1', 'welcome123', 'changeme', 'letmein', 'iloveyou', 'iloveyou123', 'woaini', 'woaini1314', 'woaini520',
  'monkey', 'dragon', 'master', 'shadow', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'batman',
  'trustno1', 'starwars', 'computer', 'freedom', 'whatever', 'secret', 'secret123', 'test', 'test123', 'test1234',
  'customer', 'customer1', 'customer123', 'customer@123', 'campus', 'campus123', 'campus@123', 'system', 'system123', 'system@123',
];

/** Whether `password` is one of the common passwords, in any case (the shell's check on the text typed). */
export function isCommonCustomerPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return commonPasswords.includes(lower);
}

/**
 * The texts whose digests the server refuses: each common password as listed, with its first letter in upper case and
 * all in upper case (a digest matches one exact text only).
 */
export function commonCustomerPasswordTexts(): string[] {
  const texts = new Set<string>();
  for (const password of commonPasswords) {
    texts.add(password);
    texts.add(password.charAt(0).toUpperCase() + password.slice(1));
    texts.add(password.toUpperCase());
  }
  return [...texts];
}
