/**
 * Characters a name shown to users may not hold: control characters (C0, C1, DEL), invisible format characters
 * (Unicode category Cf: U+202E turns the text after it around, U+200B hides, U+2066-2069 isolate), line and
 * paragraph separators, and '<' / '>' (a name is text, never markup, wherever it is shown or copied to).
 */
const notShown = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>]/u;

/** The first character `value` may not show, as `U+XXXX` (or the character itself for '<' and '>'), or null. */
export function displayTextProblem(value: string): string | null {
  const found = notShown.exec(value);
  if (!found) return null;
  const character = found[0];
  if (character === '<' || character === '>') return `"${character}"`;
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
