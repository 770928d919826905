import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { codeMessages, codes, languageCodes, messagePlaceholders } from '@campus/contracts';
import type { BusinessCode, BusinessCodeName } from '@campus/contracts';
import { AppError } from '../../src/http/envelope.ts';
import { errorHandler } from '../../src/http/errors.ts';

// No message of the code catalogue is ever sent with a `{name}` left in it (issue 25, item 8: "{holder} already holds
// a card in use" reached the card tables in all three languages).

const sourceRoot = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Throw {
  where: string;
  code: BusinessCodeName;
  /** The placeholders the call passes a value for; null when it passes its own message (detail) instead. */
  filled: string[] | null;
}

/** Every `new AppError(codes.name, …)` of the server's source, with the values it passes. */
function appErrorsWithLiteralCodes(): Throw[] {
  const found: Throw[] = [];
  for (const file of sourceFiles(sourceRoot)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AppError') {
        const [code, options] = node.arguments ?? [];
        if (code && ts.isPropertyAccessExpression(code) && ts.isIdentifier(code.expression) && code.expression.text === 'codes') {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          // new AppError(code, { values, detail, … }): a detail brings its own message
          const option = (name: string) =>
            options && ts.isObjectLiteralExpression(options)
              ? options.properties.find((property) => property.name && ts.isIdentifier(property.name) && property.name.text === name)
              : undefined;
          const valuesOption = option('values');
          const values = valuesOption && ts.isPropertyAssignment(valuesOption) ? valuesOption.initializer : undefined;
          const detailOption = option('detail');
          const ownMessage = detailOption !== undefined && !(ts.isPropertyAssignment(detailOption) && detailOption.initializer.kind === ts.SyntaxKind.NullKeyword);
          const keys =
            values && ts.isObjectLiteralExpression(values)
              ? values.properties.flatMap((property) => (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? [property.name.text] : []))
              : [];
          found.push({ where: `${path.relative(sourceRoot, file)}:${line}`, code: code.name.text as BusinessCodeName, filled: ownMessage ? null : keys });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the code catalogue and its placeholders', () => {
  it('names the same placeholders in every language of a message', () => {
    for (const code of Object.keys(codeMessages).map(Number) as BusinessCode[]) {
      const names = messagePlaceholders(code, 'en-US').sort();
      for (const language of languageCodes) expect({ code, language, names: messagePlaceholders(code, language).sort() }).toEqual({ code, language, names });
    }
  });

  it('every throw of a code whose message has placeholders passes a value for each of them', () => {
    const throws = appErrorsWithLiteralCodes();
    // the walk finds the server's throws, the card throws of item 8 among them (so it cannot pass by finding nothing)
    expect(throws.length).toBeGreaterThan(50);
    expect(throws.filter((one) => one.code === 'cardAlreadyExists').map((one) => one.filled)).toEqual([['holder'], ['holder']]);
    const unfilled = throws.flatMap((one) => {
      if (one.filled === null) return [];
      const missing = messagePlaceholders(codes[one.code]).filter((name) => !one.filled!.includes(name));
      return missing.length > 0 ? [`${one.where}: ${one.code} without ${missing.map((name) => `{${name}}`).join(', ')}`] : [];
    });
    expect(unfilled).toEqual([]);
  });
});

describe('the envelope refuses a message with a placeholder left unfilled (NODE_ENV=test)', () => {
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.addHook('onRequest', async (request) => {
    (request as { lang?: string }).lang = String(request.headers.language ?? 'en-US');
  });
  app.get('/unfilled', async () => {
    throw new AppError(codes.cardAlreadyExists);
  });
  app.get('/filled', async () => {
    throw new AppError(codes.cardAlreadyExists, { values: { holder: 'Deputy Administrator (deputy)' } });
  });
  app.get('/localised', async () => {
    throw new AppError(codes.cardAlreadyExists, { values: { holder: { 'en-US': 'this installation', 'zh-CN': '本系统', 'zh-MO': '本系統' } } });
  });
  afterAll(() => app.close());

  it('answers 500 naming the code and the placeholder, so that no test passes over such a throw', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const reply = await app.inject({ method: 'GET', url: '/unfilled' });
    expect(reply.statusCode).toBe(500);
    expect(reply.json()).toEqual({ code: codes.internalError, msg: 'business code 239 was sent without a value for {holder}', data: null });
  });

  it('sends a filled message as it is, in the caller’s language; a value may be given per language', async () => {
    expect((await app.inject({ method: 'GET', url: '/filled' })).json()).toEqual({ code: 239, msg: 'Card already exists: Deputy Administrator (deputy) already holds a card in use', data: null });
    expect((await app.inject({ method: 'GET', url: '/localised', headers: { language: 'zh-MO' } })).json().msg).toBe('卡片已存在：本系統已有使用中的卡');
    expect((await app.inject({ method: 'GET', url: '/localised', headers: { language: 'zh-CN' } })).json().msg).toBe('卡片已存在：本系统已有使用中的卡');
  });
});
