import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * packages/contracts says `"sideEffects": false`, so the shell's build keeps a contracts module only in the chunks
 * that use its exports (the login page does not carry the message catalogues, issue 27). That promise holds only
 * while no module of the package does anything when it is loaded: a statement at the top level other than a
 * declaration would be dropped from the build without a word.
 */
const contractsSource = path.resolve(__dirname, '../../../../packages/contracts/src');
const contractsPackage = path.resolve(contractsSource, '../package.json');

const declarationKinds = new Set([
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.EnumDeclaration,
]);

/** The top-level statements of a module that run something when it loads. */
function effectsAtLoad(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return source.statements
    .filter((statement) => !declarationKinds.has(statement.kind) || (ts.isImportDeclaration(statement) && !statement.importClause))
    .map((statement) => `${path.basename(file)}: ${statement.getText(source).slice(0, 80)}`);
}

describe('@campus/contracts is free of side effects, as its package.json says', () => {
  it('declares it, and no module runs anything when it is loaded (a bare import or a top-level statement)', () => {
    expect(JSON.parse(fs.readFileSync(contractsPackage, 'utf8')).sideEffects).toBe(false);
    const modules = fs.readdirSync(contractsSource).filter((name) => name.endsWith('.ts'));
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.flatMap((name) => effectsAtLoad(path.join(contractsSource, name)))).toEqual([]);
  });

  it('finds such a statement where there is one', () => {
    const probe = path.join(fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'contracts-')), 'probe.ts');
    fs.writeFileSync(probe, "import './polyfill.ts';\nexport const a = 1;\nglobalThis.x = a;\n");
    expect(effectsAtLoad(probe)).toEqual(["probe.ts: import './polyfill.ts';", 'probe.ts: globalThis.x = a;']);
  });
});
