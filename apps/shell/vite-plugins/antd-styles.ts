import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * antd's zero-runtime stylesheet (antd/dist/antd.css) is about 1 MB for every component antd has, and the shell
 * loaded all of it with the signed-in layout: Chromium spent over 150 ms (on a mid-range phone) parsing it, and every
 * style recalculation matched against it (issue 27, item 2). This plugin cuts it in three:
 *
 * - the rules of components the shell never uses (`unused`) are dropped;
 * - the rules of the large components only some screens use (`perScreen`) go with those screens: a module that
 *   imports one of them from 'antd' gets an import of that group's stylesheet, so Vite puts it in that screen's CSS;
 * - everything else (the layout's components, the shared motion and reset rules) is `virtual:antd-styles/base.css`.
 *
 * A rule moves or goes only when every selector in it belongs to the same component; a rule that styles one
 * component inside another stays in the base. The build stops when a name listed here no longer matches any rule
 * (a new antd renamed it), rather than ship a screen without its styles; and the browser suite names any antd
 * class on a screen it checks whose rules did not come with it (e2e/support/antd-styles.ts).
 */

/** antd components (by CSS name) that no screen of the shell uses, directly or inside a component it uses. */
const unused = [
  'anchor', 'avatar', 'badge', 'breadcrumb', 'card', 'carousel', 'cascader', 'collapse', 'color-picker',
  'float-btn', 'image', 'input-number', 'masonry', 'mentions', 'notification', 'otp', 'popconfirm', 'popover',
  'qrcode', 'rate', 'ribbon', 'skeleton', 'slider', 'splitter', 'statistic', 'steps', 'timeline', 'tour',
  'transfer', 'tree', 'tree-select',
];

/**
 * The stylesheets that go with the screens using them: the antd components (as imported from 'antd') that need
 * each group, and the CSS names of the components in it (a Table draws a Pagination with a Select for the page
 * size; an Upload list draws a Progress; a Form item sits on the grid).
 */
export const perScreen: Record<string, { importedAs: string[]; cssNames: string[] }> = {
  table: { importedAs: ['Table', 'List'], cssNames: ['table', 'pagination'] },
  select: { importedAs: ['Select', 'Table', 'List'], cssNames: ['select'] },
  picker: { importedAs: ['DatePicker', 'TimePicker', 'Calendar'], cssNames: ['picker'] },
  upload: { importedAs: ['Upload'], cssNames: ['upload', 'progress'] },
  tabs: { importedAs: ['Tabs'], cssNames: ['tabs'] },
  // a Form item is laid out on antd's grid (Row and Col), which is most of this group
  form: { importedAs: ['Form', 'Row', 'Col', 'List'], cssNames: ['form', 'col', 'row'] },
  // the components of dialogs and screens the layout does not open by itself; a Table draws an Input (the
  // pager's quick jumper) and checkboxes or radios (row selection, filters)
  input: { importedAs: ['Input', 'Table'], cssNames: ['input'] },
  choice: { importedAs: ['Checkbox', 'Radio', 'Table'], cssNames: ['checkbox', 'radio'] },
  typography: { importedAs: ['Typography'], cssNames: ['typography'] },
  tag: { importedAs: ['Tag'], cssNames: ['tag'] },
  descriptions: { importedAs: ['Descriptions'], cssNames: ['descriptions'] },
  segmented: { importedAs: ['Segmented'], cssNames: ['segmented'] },
  // the identity providers screen's switches (issue 49)
  switch: { importedAs: ['Switch'], cssNames: ['switch'] },
};

const virtualPrefix = 'virtual:antd-styles/';
const resolvedPrefix = '\0antd-styles:';

/** A top-level piece of a stylesheet: a rule, or an at-rule with a block of rules (@media), or one kept whole. */
type Piece = { kind: 'rule'; selectors: string; body: string } | { kind: 'group'; prelude: string; pieces: Piece[] } | { kind: 'whole'; text: string };

/** Index of the `}` closing the block opened just before `start`, skipping strings and comments. */
function blockEnd(css: string, start: number): number {
  let depth = 1;
  for (let i = start; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      i = css.indexOf(c, i + 1);
      if (i < 0) break;
    } else if (c === '/' && css[i + 1] === '*') {
      i = css.indexOf('*/', i + 2) + 1;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new Error('antd-styles: unbalanced braces in antd.css');
}

export function parsePieces(css: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  while (i < css.length) {
    while (i < css.length && /\s/.test(css[i]!)) i++;
    if (i >= css.length) break;
    if (css.startsWith('/*', i)) {
      i = css.indexOf('*/', i) + 2;
      continue;
    }
    const open = css.indexOf('{', i);
    const semicolon = css.indexOf(';', i);
    if (css[i] === '@' && semicolon >= 0 && (open < 0 || semicolon < open)) {
      pieces.push({ kind: 'whole', text: css.slice(i, semicolon + 1) });
      i = semicolon + 1;
      continue;
    }
    if (open < 0) break;
    const end = blockEnd(css, open + 1);
    const head = css.slice(i, open).trim();
    const body = css.slice(open + 1, end);
    if (/^@(media|supports|layer|container)\b/.test(head)) pieces.push({ kind: 'group', prelude: head, pieces: parsePieces(body) });
    else if (head.startsWith('@')) pieces.push({ kind: 'whole', text: `${head}{${body}}` });
    else pieces.push({ kind: 'rule', selectors: head, body });
    i = end + 1;
  }
  return pieces;
}

/** The selectors of a list, split at its top-level commas. */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(from, i));
      from = i + 1;
    }
  }
  out.push(list.slice(from));
  return out.map((s) => s.trim());
}

/** Tells the component a CSS name belongs to: the longest listed name that is the class or its prefix. */
function componentOf(names: string[]): (selector: string) => string | null {
  const sorted = [...names].sort((a, b) => b.length - a.length);
  return (selector) => {
    const first = /\.ant-([a-z]+(?:-[a-z]+)*)/.exec(selector);
    if (!first) return null;
    const cls = first[1]!;
    return sorted.find((name) => cls === name || cls.startsWith(`${name}-`)) ?? null;
  };
}

function render(pieces: Piece[]): string {
  return pieces
    .map((piece) => {
      if (piece.kind === 'rule') return `${piece.selectors}{${piece.body}}`;
      if (piece.kind === 'whole') return piece.text;
      return piece.pieces.length ? `${piece.prelude}{${render(piece.pieces)}}` : '';
    })
    .join('');
}

/** The pieces that go to `place`, at-rule blocks kept around their rules. */
function select(pieces: Piece[], place: string, placeOf: Map<Piece, string>): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'rule') {
      if (placeOf.get(piece) === place) out.push(piece);
    } else if (piece.kind === 'group') {
      const inner = select(piece.pieces, place, placeOf);
      if (inner.length) out.push({ ...piece, pieces: inner });
    } else if (place === 'base') out.push(piece);
  }
  return out;
}

/** antd.css cut into the base stylesheet and one per per-screen group (the unused rules in none). */
export function splitAntdStyles(css: string): Map<string, string> {
  const groupOf = new Map<string, string>();
  for (const name of unused) groupOf.set(name, 'drop');
  for (const [group, { cssNames }] of Object.entries(perScreen)) for (const name of cssNames) groupOf.set(name, group);
  const component = componentOf([...groupOf.keys()]);
  const pieces = parsePieces(css);
  // where each rule goes ('drop', a per-screen group, or 'base'): decided once, from all its selectors
  const placeOf = new Map<Piece, string>();
  // which listed names matched any rule: a name that matches none was renamed by a new antd
  const matched = new Set<string>();
  const place = (list: Piece[]) => {
    for (const piece of list) {
      if (piece.kind === 'group') place(piece.pieces);
      if (piece.kind !== 'rule') continue;
      const places = new Set<string>();
      for (const selector of splitSelectors(piece.selectors)) {
        const name = component(selector);
        if (name) matched.add(name);
        places.add((name && groupOf.get(name)) ?? 'base');
      }
      placeOf.set(piece, places.size === 1 ? [...places][0]! : 'base');
    }
  };
  place(pieces);
  const missing = [...groupOf.keys()].filter((name) => !matched.has(name));
  if (missing.length) throw new Error(`antd-styles: no rule of antd.css belongs to ${missing.join(', ')}: a new antd renamed them; update vite-plugins/antd-styles.ts`);
  return new Map(['base', ...Object.keys(perScreen)].map((name) => [name, render(select(pieces, name, placeOf))]));
}

/** The per-screen groups a module's `import { … } from 'antd'` needs. */
export function groupsImportedBy(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]antd['"]/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim();
      if (name) names.add(name);
    }
  }
  return Object.entries(perScreen)
    .filter(([, { importedAs }]) => importedAs.some((name) => names.has(name)))
    .map(([group]) => group);
}

export function antdStyles(): Plugin {
  let split: Map<string, string> | null = null;
  const styles = () => {
    if (!split) {
      const file = createRequire(import.meta.url).resolve('antd/dist/antd.css');
      split = splitAntdStyles(readFileSync(file, 'utf8'));
    }
    return split;
  };
  return {
    name: 'campus-antd-styles',
    enforce: 'pre',
    resolveId(id) {
      if (!id.startsWith(virtualPrefix)) return null;
      return `${resolvedPrefix}${id.slice(virtualPrefix.length)}`;
    },
    load(id) {
      if (!id.startsWith(resolvedPrefix)) return null;
      const place = id.slice(resolvedPrefix.length).replace(/\.css$/, '');
      const css = styles().get(place);
      if (css === undefined) this.error(`antd-styles: no stylesheet named ${place}`);
      return css;
    },
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (file.includes('/node_modules/') || !/\.(tsx?|jsx?)$/.test(file)) return null;
      const groups = groupsImportedBy(code);
      if (!groups.length) return null;
      // on the first line, so the module's own lines keep their numbers
      return { code: `${groups.map((group) => `import '${virtualPrefix}${group}.css';`).join('')}${code}`, map: null };
    },
  };
}
