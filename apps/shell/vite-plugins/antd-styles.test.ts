import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { groupsImportedBy, parsePieces, splitAntdStyles } from './antd-styles.ts';

const antdCss = readFileSync(createRequire(import.meta.url).resolve('antd/dist/antd.css'), 'utf8');
const split = splitAntdStyles(antdCss);
const base = split.get('base')!;

/** The selector lists of a stylesheet's rules, those inside @media blocks included. */
function selectorLists(css: string): string[] {
  const walk = (pieces: ReturnType<typeof parsePieces>): string[] =>
    pieces.flatMap((piece) => (piece.kind === 'rule' ? [piece.selectors] : piece.kind === 'group' ? walk(piece.pieces) : []));
  return walk(parsePieces(css));
}
/** Whether some rule of `css` styles only the component named: every selector of it starts with its class. */
const hasRulesOnlyFor = (css: string, name: string) =>
  selectorLists(css).some((list) => list.split(',').every((selector) => new RegExp(`^\\.ant-${name}(?![a-z-])|^\\.ant-${name}-[a-z]`).test(selector.trim())));

describe('antd’s stylesheet cut for the shell', () => {
  it('keeps the layout’s components in the base and moves the large per-screen ones out of it', () => {
    for (const kept of ['menu', 'btn', 'layout', 'dropdown', 'modal', 'tooltip', 'message', 'drawer', 'alert', 'result']) expect(hasRulesOnlyFor(base, kept), kept).toBe(true);
    for (const moved of ['table', 'pagination', 'picker', 'upload', 'progress', 'tabs', 'select', 'form', 'col', 'input', 'checkbox', 'radio', 'typography', 'tag', 'descriptions', 'segmented', 'switch']) {
      expect(hasRulesOnlyFor(base, moved), moved).toBe(false);
    }
    expect(hasRulesOnlyFor(split.get('input')!, 'input')).toBe(true);
    expect(hasRulesOnlyFor(split.get('choice')!, 'checkbox')).toBe(true);
    expect(hasRulesOnlyFor(split.get('choice')!, 'radio')).toBe(true);
    expect(hasRulesOnlyFor(split.get('descriptions')!, 'descriptions')).toBe(true);
    expect(hasRulesOnlyFor(split.get('form')!, 'form-item')).toBe(true);
    expect(hasRulesOnlyFor(split.get('form')!, 'col')).toBe(true);
    expect(hasRulesOnlyFor(split.get('table')!, 'table')).toBe(true);
    expect(hasRulesOnlyFor(split.get('table')!, 'pagination')).toBe(true);
    expect(hasRulesOnlyFor(split.get('picker')!, 'picker')).toBe(true);
    expect(hasRulesOnlyFor(split.get('upload')!, 'progress')).toBe(true);
    expect(hasRulesOnlyFor(split.get('tabs')!, 'tabs')).toBe(true);
    expect(hasRulesOnlyFor(split.get('select')!, 'select')).toBe(true);
    expect(hasRulesOnlyFor(split.get('switch')!, 'switch')).toBe(true);
    expect(base.length).toBeLessThan(antdCss.length / 2);
  });

  it('drops the components no screen uses, but not the ones whose names start alike', () => {
    const everything = [...split.values()].join('');
    for (const dropped of ['steps', 'input-number', 'tree', 'tree-select', 'notification']) expect(hasRulesOnlyFor(everything, dropped), dropped).toBe(false);
    // the names that begin like a dropped one stay: Input (not InputNumber), Select (not TreeSelect)
    expect(hasRulesOnlyFor(split.get('input')!, 'input-affix-wrapper')).toBe(true);
    expect(hasRulesOnlyFor(split.get('select')!, 'select-dropdown')).toBe(true);
  });

  it('loses no rule it was not told to drop: each rule of a kept component is in exactly one stylesheet', () => {
    const rules = parsePieces(antdCss).flatMap((piece) => (piece.kind === 'rule' && /^\.ant-(btn|table|menu|radio|input(?!-number))\b/.test(piece.selectors) ? [`${piece.selectors}{${piece.body}}`] : []));
    expect(rules.length).toBeGreaterThan(500);
    const outputs = [...split.values()];
    const homes = (rule: string) => outputs.filter((css) => css.includes(rule)).length;
    expect(rules.filter((rule) => homes(rule) !== 1)).toEqual([]);
  });

  it('stops the build when a listed component matches nothing (a new antd renamed it)', () => {
    expect(() => splitAntdStyles(antdCss.replace(/\.ant-tabs/g, '.ant-tabz'))).toThrow(/tabs/);
  });

  it('keeps a rule that styles one component inside another, and at-rule blocks around what they hold', () => {
    const css = '.ant-layout .ant-table{color:red}@media (max-width:575px){.ant-table-wrapper .x{a:b}.ant-menu{c:d}}@keyframes antFadeIn{0%{opacity:0}}';
    const sample = splitAntdStyles(`${css}${antdCss}`);
    expect(sample.get('base')!.startsWith('.ant-layout .ant-table{color:red}@media (max-width:575px){.ant-menu{c:d}}@keyframes antFadeIn{0%{opacity:0}}')).toBe(true);
    expect(sample.get('table')!.startsWith('@media (max-width:575px){.ant-table-wrapper .x{a:b}}')).toBe(true);
  });
});

describe('which stylesheets a module brings', () => {
  it('follows its named imports from antd, aliases and types included', () => {
    expect(groupsImportedBy("import { Button, Table as T } from 'antd';")).toEqual(['table', 'select', 'input', 'choice']);
    expect(groupsImportedBy("import { DatePicker, Upload } from \"antd\";\nimport { Tabs } from 'antd';")).toEqual(['picker', 'upload', 'tabs']);
    expect(groupsImportedBy("import { Button, Modal } from 'antd';")).toEqual([]);
    expect(groupsImportedBy("import { Form, Input } from 'antd';")).toEqual(['form', 'input']);
    expect(groupsImportedBy("import type { TableProps } from 'antd';")).toEqual([]);
  });
});
