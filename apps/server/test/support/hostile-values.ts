import fc from 'fast-check';

/**
 * Values nobody should send, as an attacker or a broken client would: the texts of the usual injection and
 * traversal attacks, the characters that break parsers and storage, the numbers that break arithmetic.
 */

/** Texts that injection, markup, template and traversal attacks are made of. */
export const attackTexts = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)--',
  "admin'--",
  '%',
  '_',
  '\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f',
  '%00',
  '%zz',
  '/',
  '.',
  '..',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
];

/** Characters that break parsers, storage (PostgreSQL text refuses NUL) and displays. */
export const awkwardTexts = [
  '',
  ' ',
  '\t',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\u0007\u001b[31m',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u202e' + 'gnp.exe',
  '\ufeff',
  '\ud800',
  '\udfff',
  '😀👨‍👩‍👧',
  '中文字符',
  'Ǆǅǆ',
  'İı',
  'ﷺ'.repeat(10),
];

/** Strings that look like numbers, booleans or nothing, for fields that take or hold such things. */
export const numberLikeTexts = ['NaN', 'Infinity', '-Infinity', '1e309', '-0', '0x1F', '0b11', '1_000', '+1', ' 1', '1 ', '00', '1.0', '9007199254740993', 'true', 'null', 'undefined', '[]', '{}'];

/** Numbers at and past the limits of JavaScript, SQLite and PostgreSQL integers. */
export const edgeNumbers = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  Number.EPSILON,
];

/** Very long texts: past every maxLength, near the body limit. */
const longTexts = fc.constantFrom('a'.repeat(300), 'A'.repeat(5_000), '9'.repeat(70_000), '中'.repeat(20_000), '%'.repeat(4_000));

/** A hostile text: an attack, an awkward character, a number-like text, a very long one or random code units. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...attackTexts), weight: 3 },
  { arbitrary: fc.constantFrom(...awkwardTexts), weight: 3 },
  { arbitrary: fc.constantFrom(...numberLikeTexts), weight: 1 },
  { arbitrary: longTexts, weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  // an attack text inside ordinary text, so a prefix check does not stop it
  { arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...attackTexts)).map(([a, b]) => a + b), weight: 1 },
);

/** An own `__proto__` / `constructor` key (an object literal would set the prototype instead). */
export const pollutingObjects: unknown[] = [
  JSON.parse('{"__proto__":{"isAdmin":true,"polluted":1}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'),
  JSON.parse('{"__proto__":null}'),
];

/** Nested arrays or objects `depth` deep. */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

// deeper still is sent as raw JSON text (fuzz-requests.ts): JSON.stringify of the value would overflow the test's own stack
const deepValues = fc.constantFrom(nested(64, 'object'), nested(1_000, 'array'), nested(1_000, 'object'));

/** Any value of a wrong kind: for a field whatever its schema says. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileText, weight: 4 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, ...edgeNumbers), weight: 3 },
  { arbitrary: fc.constantFrom(...pollutingObjects), weight: 1 },
  { arbitrary: deepValues, weight: 1 },
  { arbitrary: fc.array(fc.oneof(hostileText, fc.integer()), { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  // an array far longer than any maxItems
  { arbitrary: fc.constant(Array.from({ length: 2_000 }, (_, i) => i)), weight: 1 },
);
