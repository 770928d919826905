import fc from 'fast-check';
import { edgeNumbers, hostileText, hostileValue, pollutingObjects } from './hostile-values.ts';

/**
 * fast-check arbitraries made from a route's JSON Schema (TypeBox schemas are JSON Schema), in three flavours:
 * - valid: values the schema accepts;
 * - boundary: values at the schema's limits and just past them (lengths, minimum and maximum, empty, 0, -1,
 *   the largest safe integer), most of them accepted;
 * - hostile: values of the wrong kind, extra and polluting keys, very long, control and unicode text, SQL and
 *   HTML, path traversal, deep nesting: almost all of them refused.
 * The keywords read are those TypeBox writes: type, properties, required, additionalProperties,
 * patternProperties, items, minItems, maxItems, uniqueItems, minLength, maxLength, pattern, format, minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum, const, enum, anyOf, oneOf, allOf.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export type Flavour = 'valid' | 'boundary' | 'hostile';

/** Arrays and strings a valid value is generated with at most (a schema may allow far more). */
const generatedItemsAtMost = 8;

const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/**
 * Strings matching a pattern, made once per pattern and size: fast-check builds a pattern's arbitrary piece by
 * piece (`{1,256}` takes it 20 ms), far longer than drawing from it.
 */
const patternArbitraries = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string, size?: fc.SizeForArbitrary): fc.Arbitrary<string> {
  const key = `${size ?? ''} ${pattern}`;
  let arbitrary = patternArbitraries.get(key);
  if (!arbitrary) {
    arbitrary = fc.stringMatching(new RegExp(pattern, 'u'), size === undefined ? {} : { size });
    patternArbitraries.set(key, arbitrary);
  }
  return arbitrary;
}

/** A schema's arbitraries, made once per schema object and flavour (the routes share their schemas' parts). */
const schemaArbitraries = new WeakMap<JsonSchema, Map<Flavour, fc.Arbitrary<unknown>>>();

export function arbitraryFor(schema: JsonSchema, flavour: Flavour): fc.Arbitrary<unknown> {
  let made = schemaArbitraries.get(schema);
  if (!made) schemaArbitraries.set(schema, (made = new Map()));
  let arbitrary = made.get(flavour);
  if (!arbitrary) {
    arbitrary = flavour === 'valid' ? valid(schema) : flavour === 'boundary' ? boundary(schema) : hostile(schema);
    made.set(flavour, arbitrary);
  }
  return arbitrary;
}

// ---------------------------------------------------------------- valid

export function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map(valid));
  // allOf: TypeBox writes it for intersections of objects; their properties merged are what each part accepts
  if (schema.allOf) return valid(mergeAll(schema.allOf));
  switch (typeOf(schema)) {
    case 'string':
      return validString(schema);
    case 'integer':
      return integerBetween(lowerBound(schema, true), upperBound(schema, true));
    case 'number':
      return fc.double({ min: lowerBound(schema, false), max: upperBound(schema, false), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayOf(schema, valid(schema.items ?? {}), schema.minItems ?? 0, Math.min(schema.maxItems ?? generatedItemsAtMost, Math.max(schema.minItems ?? 0, generatedItemsAtMost)));
    case 'object':
      return objectOf(schema, valid);
    default:
      // no type: anything (Type.Unknown)
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function mergeAll(parts: JsonSchema[]): JsonSchema {
  return parts.reduce<JsonSchema>(
    (merged, part) => ({
      ...merged,
      ...part,
      properties: { ...merged.properties, ...part.properties },
      required: [...(merged.required ?? []), ...(part.required ?? [])],
    }),
    {},
  );
}

function lowerBound(schema: JsonSchema, integer: boolean): number {
  const step = integer ? 1 : Number.EPSILON;
  if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + step;
  return schema.minimum ?? (integer ? Number.MIN_SAFE_INTEGER : -1e15);
}

function upperBound(schema: JsonSchema, integer: boolean): number {
  const step = integer ? 1 : Number.EPSILON;
  if (schema.exclusiveMaximum !== undefined) return schema.exclusiveMaximum - step;
  return schema.maximum ?? (integer ? Number.MAX_SAFE_INTEGER : 1e15);
}

/** fc.integer stops at 32 bits: wider ranges go through bigint. */
function integerBetween(min: number, max: number): fc.Arbitrary<number> {
  const int32 = 2 ** 31 - 1;
  if (min >= -int32 - 1 && max <= int32) return fc.integer({ min, max });
  return fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max)) }).map(Number);
}

function arrayOf(schema: JsonSchema, item: fc.Arbitrary<unknown>, minLength: number, maxLength: number): fc.Arbitrary<unknown[]> {
  if (schema.uniqueItems) return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
  return fc.array(item, { minLength, maxLength });
}

function objectOf(schema: JsonSchema, flavour: (schema: JsonSchema) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) model[key] = flavour(property);
  const requiredKeys = (schema.required ?? []).filter((key) => key in properties);
  const record = fc.record(model, { requiredKeys });
  const patterns = Object.entries(schema.patternProperties ?? {});
  if (patterns.length === 0) return record;
  // a Record<K, V>: a few keys matching the first pattern
  const [pattern, valueSchema] = patterns[0]!;
  const keys = pattern === '^.*$' ? fc.string({ maxLength: 12 }) : matching(pattern);
  return fc.tuple(record, fc.dictionary(keys, flavour(valueSchema), { maxKeys: 4 })).map(([fixed, extra]) => ({ ...extra, ...fixed }));
}

/** A string of the schema's format, pattern and length. */
function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength;
  const fits = (text: string) => text.length >= min && (max === undefined || text.length <= max);
  const formatted = formattedString(schema.format);
  if (formatted) return formatted.filter(fits);
  if (schema.pattern !== undefined) return stringMatchingWithin(schema.pattern, min, max ?? null).filter(fits);
  return fc.string({ minLength: min, maxLength: Math.min(max ?? 32, Math.max(min, 32)) });
}

function formattedString(format: string | undefined): fc.Arbitrary<string> | null {
  switch (format) {
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'uuid':
      return fc.uuid();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'date-time':
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString().slice(0, 10));
    default:
      return null;
  }
}

/** `^[class]*$` and `^[class]+$`: the one repeated atom, so that lengths can be asked of it. */
function repeatedAtom(pattern: string): string | null {
  const match = /^\^(\[(?:\\.|[^\]\\])*\]|\\.|\.)[*+]\$$/.exec(pattern);
  return match ? match[1]! : null;
}

/**
 * Strings matching `pattern`; a pattern that repeats one atom (`^[…]*$`) is given the length bounds as its
 * quantifier, so that the bounds cost no filtering.
 */
function stringMatchingWithin(pattern: string, min: number, max: number | null): fc.Arbitrary<string> {
  const atom = repeatedAtom(pattern);
  const atLeast = atom !== null && pattern.endsWith('+$') ? Math.max(min, 1) : min;
  return matching(atom !== null ? `^${atom}{${atLeast},${max ?? ''}}$` : pattern);
}

/** Strings of exactly `length` that match the pattern where the pattern allows it (else of any text). */
function stringOfLength(schema: JsonSchema, length: number): fc.Arbitrary<string> {
  const atom = schema.pattern !== undefined ? repeatedAtom(schema.pattern) : null;
  if (atom !== null) return matching(`^${atom}{${length}}$`);
  if (schema.pattern !== undefined) return matching(schema.pattern).map((text) => text.padEnd(length, text.at(-1) ?? 'a').slice(0, length));
  return fc.string({ minLength: length, maxLength: length, unit: 'grapheme-ascii' });
}

// ---------------------------------------------------------------- boundary

export function boundary(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema || schema.enum) {
    const allowed = 'const' in schema ? [schema.const] : (schema.enum ?? []);
    // the allowed values, and the same values with another case or type
    const near = allowed.flatMap((v) => (typeof v === 'string' ? [v.toUpperCase(), v.toLowerCase(), ` ${v}`, `${v}\u0000`] : typeof v === 'number' ? [String(v), v + 1, -v] : [String(v)]));
    return fc.constantFrom(...allowed, ...near);
  }
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map(boundary));
  if (schema.allOf) return boundary(mergeAll(schema.allOf));
  switch (typeOf(schema)) {
    case 'string':
      return boundaryString(schema);
    case 'integer':
    case 'number':
      return boundaryNumber(schema);
    case 'boolean':
      return fc.constantFrom(true, false, 'true', 0, 1);
    case 'array':
      return boundaryArray(schema);
    case 'object': {
      // every key at its boundary; only the required ones; none at all
      const everyKey = { ...schema, required: Object.keys(schema.properties ?? {}) };
      const requiredOnly = { ...schema, properties: pick(schema.properties ?? {}, schema.required ?? []) };
      return fc.oneof({ arbitrary: objectOf(everyKey, boundary), weight: 4 }, { arbitrary: objectOf(requiredOnly, valid), weight: 1 }, { arbitrary: fc.constant({}), weight: 1 });
    }
    default:
      return fc.constantFrom(null, '', 0, [], {});
  }
}

function pick(properties: Record<string, JsonSchema>, keys: string[]): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(properties).filter(([key]) => keys.includes(key)));
}

function boundaryString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const lengths = new Set([min, Math.max(min - 1, 0), 0, 1]);
  if (schema.maxLength !== undefined) {
    lengths.add(schema.maxLength);
    lengths.add(schema.maxLength + 1);
  }
  const arbitraries = [...lengths].map((length) => stringOfLength(schema, length));
  // the longest the pattern allows (a page size of three digits, the last of a range); an unbounded `*` at
  // size 'max' would ask for strings of 2^31 characters
  if (schema.pattern !== undefined) {
    const unbounded = /[*+]|\{\d+,\}/.test(schema.pattern.replace(/\\./g, ''));
    arbitraries.push(matching(schema.pattern, unbounded ? 'medium' : 'max'));
  }
  return fc.oneof(...arbitraries, fc.constantFrom(' ', '0', '-1', '\u00a0'));
}

function boundaryNumber(schema: JsonSchema): fc.Arbitrary<unknown> {
  const limits = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum].filter((n): n is number => n !== undefined);
  const near = limits.flatMap((n) => [n, n - 1, n + 1]);
  const values = [...new Set([...near, ...edgeNumbers])];
  // a whole number sent as a float, and numbers as the text a query string would carry
  return fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 4 }, { arbitrary: fc.constantFrom(...values.map(String), '1.0', '1e3'), weight: 1 });
}

function boundaryArray(schema: JsonSchema): fc.Arbitrary<unknown[]> {
  const item = schema.items ?? {};
  const min = schema.minItems ?? 0;
  const lengths = new Set([0, min, Math.max(min - 1, 0)]);
  if (schema.maxItems !== undefined) {
    lengths.add(schema.maxItems);
    lengths.add(schema.maxItems + 1);
  }
  const exactly = (length: number) => fc.array(valid(item), { minLength: length, maxLength: length });
  const repeated = fc.tuple(valid(item), fc.integer({ min: 2, max: 4 })).map(([value, n]) => Array.from({ length: n }, () => value));
  return fc.oneof(...[...lengths].map(exactly), fc.array(boundary(item), { maxLength: 4 }), repeated);
}

// ---------------------------------------------------------------- hostile

export function hostile(schema: JsonSchema): fc.Arbitrary<unknown> {
  const kind = typeOf(schema);
  const wrongKind = hostileValue;
  if (kind === 'object' || schema.properties) return fc.oneof({ arbitrary: hostileObject(schema), weight: 3 }, { arbitrary: wrongKind, weight: 1 });
  if (kind === 'array') {
    const items = fc.array(fc.oneof(hostile(schema.items ?? {}), valid(schema.items ?? {})), { minLength: 1, maxLength: 6 });
    return fc.oneof({ arbitrary: items, weight: 3 }, { arbitrary: wrongKind, weight: 1 });
  }
  if (kind === 'string') {
    // mostly text: a field that takes text is attacked with text, and with a valid value spoiled by it
    const spoiled = fc.tuple(validString(schema), hostileText).map(([good, bad]) => good + bad);
    return fc.oneof({ arbitrary: hostileText, weight: 4 }, { arbitrary: spoiled, weight: 2 }, { arbitrary: wrongKind, weight: 1 });
  }
  return wrongKind;
}

/**
 * An object of the schema's shape whose properties are a mix of valid and hostile values, required ones
 * possibly missing, with extra and polluting keys.
 */
function hostileObject(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    model[key] = fc.oneof({ arbitrary: hostile(property), weight: 2 }, { arbitrary: valid(property), weight: 1 }, { arbitrary: boundary(property), weight: 1 });
  }
  const shaped = fc.record(model, { requiredKeys: [] });
  const extraKeys = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'isAdmin', '$where', 'toString', ''), fc.string({ maxLength: 10 }));
  const extras = fc.dictionary(extraKeys, hostileValue, { maxKeys: 3 });
  return fc.tuple(shaped, extras, fc.option(fc.constantFrom(...pollutingObjects), { nil: undefined })).map(([shape, extra, polluting]) => {
    const value: Record<string, unknown> = {};
    // own properties (Object.defineProperty): `value.__proto__ = …` would set the prototype, not a key
    for (const source of [polluting ?? {}, extra, shape] as Record<string, unknown>[]) {
      for (const key of Object.keys(source)) Object.defineProperty(value, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    }
    return value;
  });
}
