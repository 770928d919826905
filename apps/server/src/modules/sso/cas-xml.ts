import { codes } from '@campus/contracts';
import { CasRefusal } from './cas-refusal.ts';

// The XML a CAS server sends (the p3/serviceValidate answer, the single logout's SAML LogoutRequest), read without
// a document type: XML external entities (XXE) and entity expansion ("billion laughs") need a DOCTYPE or an entity
// declaration, so any markup declaration is refused before the parser sees the text, and the parser runs with its
// entity processing off. The five entities XML predefines and character references are decoded here afterwards;
// any other entity reference is refused too (it could only name a declared entity).

/** An element as read: its name without namespace prefix, its text, its attributes and children in order. */
export interface XmlElement {
  name: string;
  text: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

/** fast-xml-parser, loaded at the first CAS answer: most installations never read XML (docs/architecture.md, Memory). */
const loadParser = () => import('fast-xml-parser');

const invalid = (why: string, httpStatus: number) => new CasRefusal(codes.ssoResponseInvalid, { status: httpStatus, logDetail: why });

/**
 * `<!` opens a comment, a CDATA section or a markup declaration (DOCTYPE, ENTITY, ELEMENT, ATTLIST, NOTATION).
 * Only the first two are allowed; the check looks at the raw text, so a declaration hidden anywhere is refused.
 */
const markupDeclaration = /<!(?!--|\[CDATA\[)/;
const entityReference = /&([^;&\s<]*);?/g;
const predefined: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(raw: string, httpStatus: number): string {
  return raw.replace(entityReference, (whole: string, name: string) => {
    if (!whole.endsWith(';')) throw invalid('a bare & in the XML', httpStatus);
    const known = predefined[name];
    if (known !== undefined) return known;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (numeric) {
      const point = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
      const allowed = point === 0x9 || point === 0xa || point === 0xd || (point >= 0x20 && point <= 0xd7ff) || (point >= 0xe000 && point <= 0xfffd) || (point >= 0x10000 && point <= 0x10ffff);
      if (!allowed) throw invalid('a character reference XML does not allow', httpStatus);
      return String.fromCodePoint(point);
    }
    throw invalid(`an entity reference &${name.slice(0, 32)}; (entities are refused)`, httpStatus);
  });
}

type Ordered = Record<string, unknown>;

const textKey = '#text';
const cdataKey = '#cdata';
const attributesKey = ':@';
const attributePrefix = '@_';

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function toElement(node: Ordered, httpStatus: number): XmlElement | null {
  const name = Object.keys(node).find((key) => key !== attributesKey);
  if (name === undefined || name === textKey || name === cdataKey || name.startsWith('?')) return null;
  const content = node[name];
  const element: XmlElement = { name: localName(name), text: '', attributes: {}, children: [] };
  const attributes = node[attributesKey];
  if (attributes && typeof attributes === 'object') {
    for (const [key, value] of Object.entries(attributes as Record<string, unknown>)) {
      if (typeof value === 'string') element.attributes[localName(key.slice(attributePrefix.length))] = decodeEntities(value, httpStatus);
    }
  }
  for (const child of Array.isArray(content) ? (content as Ordered[]) : []) {
    if (textKey in child) element.text += decodeEntities(String(child[textKey]), httpStatus);
    else if (cdataKey in child) {
      for (const part of child[cdataKey] as Ordered[]) element.text += String(part[textKey] ?? '');
    } else {
      const sub = toElement(child, httpStatus);
      if (sub) element.children.push(sub);
    }
  }
  element.text = element.text.trim();
  return element;
}

/**
 * The document's root element; throws ssoResponseInvalid with `httpStatus` (502 for a provider's answer, 400 for a
 * message posted to this server) for anything that is not plain, well-formed XML.
 */
export async function readXml(text: string, httpStatus: number): Promise<XmlElement> {
  const source = text.replace(/^\uFEFF/, '');
  if (markupDeclaration.test(source)) throw invalid('a DOCTYPE or markup declaration (refused: entities)', httpStatus);
  const { XMLParser, XMLValidator } = await loadParser();
  const valid = XMLValidator.validate(source, { allowBooleanAttributes: false });
  if (valid !== true) throw invalid(`not well-formed XML: ${valid.err.msg.slice(0, 120)}`, httpStatus);
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: attributePrefix,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    cdataPropName: cdataKey,
    commentPropName: false,
  });
  let nodes: Ordered[];
  try {
    nodes = parser.parse(source) as Ordered[];
  } catch (error) {
    throw invalid(`not well-formed XML: ${error instanceof Error ? error.message.slice(0, 120) : 'parse error'}`, httpStatus);
  }
  const roots = nodes.map((node) => toElement(node, httpStatus)).filter((element): element is XmlElement => element !== null);
  const [root] = roots;
  if (!root || roots.length !== 1) throw invalid('not one root element', httpStatus);
  return root;
}

export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((candidate) => candidate.name === name);
}
