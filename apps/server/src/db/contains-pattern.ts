/** `text` as a LIKE pattern that matches it literally anywhere, for `like … escape '\'`. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
