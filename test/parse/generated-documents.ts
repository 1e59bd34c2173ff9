/**
 * Generated well-formed sitemap documents for the tokenizer differential: the same entries
 * written in varied styles (prefixes, references, CDATA, comments, PIs, quoting, whitespace).
 */
import fc from 'fast-check';
import { NS } from '../../src/core/namespaces.js';

// ── a generator of well-formed sitemap documents, written in varied styles ──────────────────────

type Style = { refs: number; cdata: boolean; comments: boolean; quote: '"' | "'"; space: string };

const hostile = fc.string({
  unit: fc.constantFrom(
    'a',
    'é',
    '&',
    '<',
    '>',
    '"',
    "'",
    ']',
    ']]>',
    ' ',
    '\n',
    '\t',
    '日',
    '😀',
    '/',
    '?',
    '=',
    '#',
    '%',
    'x',
  ),
  maxLength: 12,
});

/** Text content written with references, CDATA pieces and comments mixed in. */
function writeText(value: string, style: Style, pick: () => number): string {
  let out = '';
  for (const ch of value) {
    const r = pick();
    if (style.cdata && r < 0.15 && ch !== ']' && ch !== '>') out += `<![CDATA[${ch}]]>`;
    else if (r < 0.15 + style.refs * 0.2)
      out += pick() < 0.5 ? `&#${ch.codePointAt(0)};` : `&#x${ch.codePointAt(0)!.toString(16)};`;
    else if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += pick() < 0.5 || out.endsWith(']]') ? '&gt;' : '>';
    else if (ch === '"') out += pick() < 0.5 ? '&quot;' : '"';
    else if (ch === "'") out += pick() < 0.5 ? '&apos;' : "'";
    else out += ch;
    if (style.comments && pick() < 0.05) out += '<!-- c > -->';
  }
  return out;
}

function writeAttribute(value: string, style: Style): string {
  const q = style.quote;
  return (
    q +
    value
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(new RegExp(q, 'g'), q === '"' ? '&quot;' : '&apos;')
      .replace(/\n/g, '&#10;')
      .replace(/\t/g, '&#9;') +
    q
  );
}

interface UrlSpec {
  path: string;
  lastmod?: string;
  priority?: string;
  image?: string;
  title?: string;
  alternate?: [string, string];
}

const urlSpec: fc.Arbitrary<UrlSpec> = fc.record(
  {
    path: hostile,
    lastmod: fc.constantFrom('2024-05-01', '2024-05-01T10:00:00+02:00', '2024', 'not a date'),
    priority: fc.constantFrom('0.5', '1.0', '.3', '7'),
    image: hostile,
    title: hostile.filter((t) => t.trim() !== ''),
    alternate: fc.tuple(fc.constantFrom('de', 'x-default', 'en-GB'), hostile),
  },
  { requiredKeys: ['path'] },
);

export const documentSpec = fc.record({
  urls: fc.array(urlSpec, { minLength: 1, maxLength: 5 }),
  corePrefix: fc.constantFrom('', 'sm', 's'),
  imagePrefix: fc.constantFrom('image', 'i', 'pic'),
  style: fc.record({
    refs: fc.constantFrom(0, 1),
    cdata: fc.boolean(),
    comments: fc.boolean(),
    quote: fc.constantFrom('"' as const, "'" as const),
    space: fc.constantFrom('', '\n', '\n  ', '\r\n\t'),
  }),
  seed: fc.integer(),
  declaration: fc.boolean(),
  pi: fc.boolean(),
});

export type DocumentSpec = typeof documentSpec extends fc.Arbitrary<infer T> ? T : never;

export function writeDocument(spec: DocumentSpec): string {
  let state = spec.seed;
  const pick = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const { style } = spec;
  const c = spec.corePrefix ? `${spec.corePrefix}:` : '';
  const i = spec.imagePrefix;
  const sp = style.space;
  const el = (name: string, text: string) =>
    `<${c}${name}>${writeText(text, style, pick)}</${c}${name}${pick() < 0.3 ? ' ' : ''}>`;
  let xml = spec.declaration ? `<?xml version="1.0" encoding="UTF-8"?>${sp}` : '';
  if (spec.pi) xml += `<?xml-stylesheet type="text/xsl" href="s.xsl"?>${sp}`;
  if (style.comments) xml += `<!-- generated -->${sp}`;
  const coreDecl = spec.corePrefix
    ? `xmlns:${spec.corePrefix}=${writeAttribute(NS.sitemap, style)}`
    : `xmlns=${writeAttribute(NS.sitemap, style)}`;
  xml += `<${c}urlset ${coreDecl}${sp || ' '}xmlns:${i}=${writeAttribute(NS.image, style)} xmlns:xhtml=${writeAttribute(NS.xhtml, style)}>`;
  for (const url of spec.urls) {
    xml += `${sp}<${c}url>${sp}`;
    xml += el('loc', `https://example.com/${url.path}`);
    if (url.lastmod) xml += sp + el('lastmod', url.lastmod);
    if (url.priority) xml += sp + el('priority', url.priority);
    if (url.image !== undefined) {
      xml += `${sp}<${i}:image>${sp}<${i}:loc>${writeText(`https://img.example.com/${url.image}`, style, pick)}</${i}:loc>`;
      if (url.title) xml += `<${i}:title>${writeText(url.title, style, pick)}</${i}:title>`;
      xml += `</${i}:image>`;
    }
    if (url.alternate) {
      // A default-namespace redeclaration on an extension element must not disturb the core.
      xml += `${sp}<xhtml:link rel=${writeAttribute('alternate', style)} hreflang=${writeAttribute(url.alternate[0], style)}${sp || ' '}href=${writeAttribute(`https://example.com/${url.alternate[1]}`, style)}${pick() < 0.5 ? '/>' : '></xhtml:link>'}`;
    }
    if (style.comments) xml += `<?pi data?>`;
    xml += `${sp}</${c}url>`;
  }
  return `${xml}${sp}</${c}urlset>${sp}`;
}
