/**
 * The fast path's regular expressions (see plain-blocks.ts), built from the field table
 * (fields.ts) for one shape of block: the element, and the prefixes the root binds to the image
 * and XHTML namespaces. Each field's value is matched by the pattern of its kind, which admits
 * only values the general path reads without a word: a value it refuses fails the block's match,
 * and the general path reads that block and reports it.
 */
import { W3C_DATE_IN_RANGE } from '../../core/datetime.js';
import { CHANGEFREQS } from '../../core/entry.js';
import { IMAGE_FIELDS, SITEMAP_FIELDS, URL_FIELDS, type Field, type FieldProperty, type ValueKind } from './fields.js';
import { escapeRegExp } from '../../core/regexp.js';

/** The blocks read this way: a urlset's `<url>`, an index's `<sitemap>`. */
export type PlainElement = 'url' | 'sitemap';

/** The shape of the plain blocks of one document. */
export interface PlainShape {
  element: PlainElement;
  /** The prefix the root binds to the image namespace, when it binds one. */
  imagePrefix: string | undefined;
  /** The prefix the root binds to the XHTML namespace (for `xhtml:link` alternates), when it binds one. */
  xhtmlPrefix: string | undefined;
}

/** A field as the fast path reads it: its value in a group of the expression, just past its start tag. */
export interface PlainField {
  property: FieldProperty;
  kind: ValueKind;
  group: number;
  startTag: string;
}

export interface PlainPatterns {
  /** A whole block and the whitespace after it (sticky). */
  block: RegExp;
  /** The block's fields, in the table's order, with their groups in `block`. */
  fields: readonly PlainField[];
  /** The group of `block` holding its run of extension elements; undefined for a shape without extensions. */
  extensions: number | undefined;
  /** One extension element, an image or an alternate (sticky). */
  extension: RegExp;
  /** An image's fields, with their groups in `extension` (none without an image prefix). */
  imageFields: readonly PlainField[];
  /** The groups of an alternate's hreflang and href in `extension` (undefined without an XHTML prefix). */
  alternate: { hreflang: number; href: number } | undefined;
}

const SPACE = '[ \\t\\r\\n]*';
/** The ASCII characters a URL may hold unencoded (RFC 3986) but `%` and `&`, which are matched apart. */
const URL_CHARACTER = "[!#$'-;=?-\\[\\]_a-z~]";
/**
 * A URL the general path takes without a word: absolute http(s), no user name or password before
 * the host (URL-024), nothing around it, every `%` followed by two hexadecimal digits, no
 * reference but `&amp;` (written as an unrolled loop, so that the engine never backtracks).
 */
const CLEAN_URL = `https?://(?![^/?#<]*@)${URL_CHARACTER}*(?:(?:%[0-9A-Fa-f]{2}|&amp;)${URL_CHARACTER}*)*`;
/** hreflang values made of letters, digits, `-` and `_` (anything else takes the general path). */
const PLAIN_LANGUAGE_TAG = '[A-Za-z0-9_-]+';

/**
 * Each kind of value as the fast path matches it (the general path's counterpart is readField in
 * sitemap.ts). A lastmod's day past 28 is checked apart (see PlainBlockReader.value).
 */
const PLAIN_VALUES: Record<ValueKind, string> = {
  url: CLEAN_URL,
  date: W3C_DATE_IN_RANGE,
  changefreq: CHANGEFREQS.join('|'),
  /** Decimal numbers from 0 to 1 as the general path reads them (`1`, `0.5`, `.5`, `1.0`, `+0.3` …). */
  priority: String.raw`\+?(?:0*1(?:\.0*)?|0*\.\d+|0+(?:\.\d*)?)`,
  /**
   * Text the general path reads as it stands (after trimming): no markup, no reference but
   * `&amp;`, no control character but tab and line feed (a carriage return is normalised away by XML).
   */
  text: String.raw`(?:[^<&\x00-\x08\x0b-\x1f\ufffe\uffff]|&amp;)+`,
};

/**
 * The prefix, of those the root binds to an extension's namespace, that plain blocks are matched
 * under: the first that is an XML name without a colon, ASCII only (other prefixes are rare enough
 * for the general path, and a broken declaration leaves those elements to it).
 */
export function plainPrefix(prefixes: readonly string[]): string | undefined {
  return prefixes.find((prefix) => PLAIN_PREFIX.test(prefix));
}

const PLAIN_PREFIX = /^[A-Za-z_][\w.-]*$/;

/**
 * The expressions by shape. The documents of one site share a shape, so a few are enough; the
 * oldest goes when there are more (a crawler may meet any prefix there is).
 */
const patternsByShape = new Map<string, PlainPatterns>();
const MAX_SHAPES = 16;

export function patternsFor(shape: PlainShape): PlainPatterns {
  const key = `${shape.element} ${shape.imagePrefix} ${shape.xhtmlPrefix}`;
  let patterns = patternsByShape.get(key);
  if (patterns === undefined) {
    patterns = compile(shape);
    if (patternsByShape.size >= MAX_SHAPES) patternsByShape.delete(patternsByShape.keys().next().value!);
    patternsByShape.set(key, patterns);
  }
  return patterns;
}

function compile({ element, imagePrefix, xhtmlPrefix }: PlainShape): PlainPatterns {
  const blockGroups = new GroupNumbers();
  const block = children(element === 'url' ? URL_FIELDS : SITEMAP_FIELDS, '', blockGroups);
  // In the block, extension elements are matched as a run, without groups (each is matched again alone).
  const bare = [
    ...(imagePrefix === undefined ? [] : [imagePattern(imagePrefix).source]),
    ...(xhtmlPrefix === undefined ? [] : [alternatePattern(xhtmlPrefix)]),
  ];
  const extensions =
    element === 'url' && bare.length > 0 ? blockGroups.capture(`(?:(?:${bare.join('|')})${SPACE})*`) : undefined;
  // One extension element alone: an image, or an alternate, their values in groups.
  const extensionGroups = new GroupNumbers();
  const image = imagePrefix === undefined ? undefined : imagePattern(imagePrefix, extensionGroups);
  let alternate: PlainPatterns['alternate'];
  const one = image === undefined ? [] : [image.source];
  if (xhtmlPrefix !== undefined) {
    const hreflang = extensionGroups.capture(PLAIN_LANGUAGE_TAG);
    const href = extensionGroups.capture(CLEAN_URL);
    one.push(alternatePattern(xhtmlPrefix, hreflang.source, href.source));
    alternate = { hreflang: hreflang.group, href: href.group };
  }
  return {
    // The whitespace after a block is its own: a match then starts at the start tag itself.
    block: new RegExp(`<${element}>${SPACE}${block.source}${extensions?.source ?? ''}</${element}>${SPACE}`, 'y'),
    fields: block.fields,
    extensions: extensions?.group,
    extension: new RegExp(`(?:${one.join('|') || '(?!)'})`, 'y'),
    imageFields: image?.fields ?? [],
    alternate,
  };
}

/**
 * The children of a block or an image, under `prefix`, in the table's order, each optional but the
 * first; with `groups`, their values are captured.
 */
function children(
  table: readonly Field<FieldProperty>[],
  prefix: string,
  groups?: GroupNumbers,
): { source: string; fields: PlainField[] } {
  const escaped = escapeRegExp(prefix);
  const fields: PlainField[] = [];
  const source = table.map(({ tag, property, kind }, i) => {
    let value = PLAIN_VALUES[kind];
    if (groups !== undefined) {
      const captured = groups.capture(value);
      fields.push({ property, kind, group: captured.group, startTag: `<${prefix}${tag}>` });
      value = captured.source;
    }
    const child = `<${escaped}${tag}>${value}</${escaped}${tag}>${SPACE}`;
    return i === 0 ? child : `(?:${child})?`;
  });
  return { source: source.join(''), fields };
}

/** An image under `prefix`: its fields in the schema's order (loc required); with `groups`, their values are captured. */
function imagePattern(prefix: string, groups?: GroupNumbers): { source: string; fields: PlainField[] } {
  const p = escapeRegExp(prefix);
  const image = children(IMAGE_FIELDS, `${prefix}:`, groups);
  return { source: `<${p}:image>${SPACE}${image.source}</${p}:image>`, fields: image.fields };
}

/** An hreflang alternate under `prefix`, written exactly so. */
function alternatePattern(prefix: string, hreflang = PLAIN_LANGUAGE_TAG, href = CLEAN_URL): string {
  return `<${escapeRegExp(prefix)}:link rel="alternate" hreflang="${hreflang}" href="${href}" ?/>`;
}

/**
 * Numbers the capturing groups of an expression as they are written into it, left to right.
 * (Named groups would say the same, but V8 then builds a `groups` object for every match, which
 * costs the hot path a fifth of its speed.)
 */
class GroupNumbers {
  private count = 0;

  /** `pattern` as a capturing group, and that group's number. */
  capture(pattern: string): { source: string; group: number } {
    const group = ++this.count;
    this.count += capturingGroupsIn(pattern);
    return { source: `(${pattern})`, group };
  }
}

/** How many capturing groups a pattern holds (an empty alternative matches, reporting all of them). */
function capturingGroupsIn(pattern: string): number {
  return new RegExp(`${pattern}|`).exec('')!.length - 1;
}
