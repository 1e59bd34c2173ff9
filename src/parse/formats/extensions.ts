/**
 * Google's extensions inside a `<url>`: image 1.1, video 1.1 (every tag and attribute), news 0.9
 * and `xhtml:link` alternates, mapped to the entry model, their values read by the rules of
 * core/rules. Whatever can be read is kept: a video or news block that lacks a required child
 * keeps what it has (VID-001, NEWS-001), and text that is no URL in a URL field is kept as
 * written and flagged. Only an image without a location, an alternate without its attributes
 * and a block with nothing readable in it are left out (IMG-001, HREF-001, VID-001, NEWS-001).
 * The URL itself is always kept.
 */
import type { Alternate, Image, News, Relationship, Video } from '../../core/entry.js';
import { LEGACY_SITEMAP_NS, NS } from '../../core/namespaces.js';
import {
  IMAGE_LOC_CODE,
  missingNewsProblem,
  missingVideoProblem,
  readPlatforms,
  readRelationship as readRelationshipRule,
  readUrl as readUrlRule,
  type Checked,
} from '../../core/rules/index.js';
import type { Position } from '../../core/position.js';
import { attribute, textContent, type XmlNode } from '../xml/block.js';
import { IMAGE_FIELDS, setField } from './fields.js';
import { readList, readText, readUrl, readVideoNumber, readYesNo, abbreviate, type ValueContext } from './values.js';

export interface BlockContext extends ValueContext {
  /** The page URL the block belongs to (named in diagnostics). */
  url: string;
  /** Positions of the entry's field values, by path. */
  fields: Record<string, Position>;
}

/** The sitemap namespaces, whose elements have no place inside an extension's block. */
const SITEMAP_NAMESPACES: ReadonlySet<string> = new Set([NS.sitemap, ...LEGACY_SITEMAP_NS]);

/**
 * Children of `node` in the extension's namespace, by local name. Children of other namespaces
 * are skipped (extensions of extensions), but a sitemap element there is misplaced (XML-007).
 */
function childrenByName(node: XmlNode, uri: string, ctx: BlockContext): Map<string, XmlNode[]> {
  const byName = new Map<string, XmlNode[]>();
  for (const child of node.children) {
    if (child.uri !== uri) {
      if (SITEMAP_NAMESPACES.has(child.uri))
        ctx.report('XML-007', `<${child.qname}> is not allowed in <${node.qname}>; ignored`, child.at, ctx.url);
      continue;
    }
    const list = byName.get(child.local);
    if (list) list.push(child);
    else byName.set(child.local, [child]);
  }
  return byName;
}

/** The one child of that name; a repeated singleton is reported (XML-008) and the first kept. */
function single(byName: Map<string, XmlNode[]>, local: string, ctx: BlockContext): XmlNode | undefined {
  const nodes = byName.get(local);
  if (nodes === undefined) return undefined;
  if (nodes.length > 1)
    ctx.report('XML-008', `<${nodes[1]!.qname}> appears more than once; the first is kept`, nodes[1]!.at, ctx.url);
  return nodes[0];
}

function reportUnknown(byName: Map<string, XmlNode[]>, known: ReadonlySet<string>, ctx: BlockContext): void {
  for (const [local, nodes] of byName) {
    if (!known.has(local))
      ctx.report('XML-007', `<${nodes[0]!.qname}> is not an element of this extension; ignored`, nodes[0]!.at, ctx.url);
  }
}

// ── image ─────────────────────────────────────────────────────────────────────────────────────

const IMAGE_TAGS = new Set<string>(IMAGE_FIELDS.map((field) => field.tag));
/** How each kind of an image's values is read. */
const IMAGE_VALUES = {
  url: (node: XmlNode, ctx: BlockContext) => readExtensionUrl(node, ctx),
  text: (node: XmlNode, ctx: BlockContext) => readText(node, ctx, ctx.url),
} as const;

export function readImage(node: XmlNode, index: number, ctx: BlockContext): Image | undefined {
  const byName = childrenByName(node, NS.image, ctx);
  reportUnknown(byName, IMAGE_TAGS, ctx);
  const locNode = single(byName, 'loc', ctx);
  const loc = locNode && readUrl(locNode, ctx, ctx.url, { field: 'extension', code: IMAGE_LOC_CODE });
  if (locNode === undefined || loc === undefined) {
    ctx.report('IMG-001', `<${node.qname}> has no valid <image:loc>; the image is left out`, node.at, ctx.url);
    return undefined;
  }
  const path = `images.${index}`;
  ctx.fields[path] = node.at;
  ctx.fields[`${path}.loc`] = locNode.valueAt;
  const image: Image = { loc };
  // In the schema's order (fields.ts), which is also the order of the entry's fields.
  for (const { tag, property, kind } of IMAGE_FIELDS.slice(1)) {
    const child = single(byName, tag, ctx);
    const value = child && IMAGE_VALUES[kind](child, ctx);
    if (value !== undefined) {
      setField(image, property, value);
      ctx.fields[`${path}.${property}`] = child!.valueAt;
    }
  }
  return image;
}

// ── video ─────────────────────────────────────────────────────────────────────────────────────

const VIDEO_TAGS = new Set([
  'thumbnail_loc',
  'title',
  'description',
  'content_loc',
  'player_loc',
  'duration',
  'expiration_date',
  'rating',
  'view_count',
  'publication_date',
  'family_friendly',
  'restriction',
  'platform',
  'requires_subscription',
  'uploader',
  'live',
  'tag',
  'category',
  'gallery_loc',
  'price',
  'tvshow',
]);
const DEPRECATED_VIDEO_TAGS = ['category', 'gallery_loc', 'price', 'tvshow'];

/** A URL inside an extension block: text that is no URL is kept as written and flagged, never resolved. */
function readExtensionUrl(node: XmlNode, ctx: BlockContext, code = 'URL-001'): string | undefined {
  return readUrl(node, ctx, ctx.url, { field: 'extension', code });
}

type VideoScalar =
  | 'thumbnailLoc'
  | 'title'
  | 'description'
  | 'contentLoc'
  | 'playerLoc'
  | 'duration'
  | 'expirationDate'
  | 'rating'
  | 'viewCount'
  | 'publicationDate'
  | 'familyFriendly'
  | 'requiresSubscription'
  | 'live';

/** Single-valued tags, in the schema's order: the field, the tag, and how the value is read. */
const VIDEO_SCALARS: readonly [VideoScalar, string, (node: XmlNode, ctx: BlockContext) => Video[VideoScalar]][] = [
  ['thumbnailLoc', 'thumbnail_loc', (n, c) => readExtensionUrl(n, c)],
  ['title', 'title', (n, c) => readText(n, c, c.url)],
  ['description', 'description', (n, c) => readText(n, c, c.url)],
  ['contentLoc', 'content_loc', (n, c) => readExtensionUrl(n, c)],
  ['playerLoc', 'player_loc', (n, c) => readExtensionUrl(n, c)],
  ['duration', 'duration', (n, c) => readVideoNumber(n, c, c.url)],
  ['expirationDate', 'expiration_date', (n, c) => readText(n, c, c.url)],
  ['rating', 'rating', (n, c) => readVideoNumber(n, c, c.url)],
  ['viewCount', 'view_count', (n, c) => readVideoNumber(n, c, c.url)],
  ['publicationDate', 'publication_date', (n, c) => readText(n, c, c.url)],
  ['familyFriendly', 'family_friendly', (n, c) => readYesNo(n, c, c.url)],
  ['requiresSubscription', 'requires_subscription', (n, c) => readYesNo(n, c, c.url)],
  ['live', 'live', (n, c) => readYesNo(n, c, c.url)],
];

export function readVideo(node: XmlNode, index: number, ctx: BlockContext): Video | undefined {
  const byName = childrenByName(node, NS.video, ctx);
  reportUnknown(byName, VIDEO_TAGS, ctx);
  for (const local of DEPRECATED_VIDEO_TAGS) {
    const found = byName.get(local);
    if (found)
      ctx.report(
        'VID-011',
        `<${found[0]!.qname}> is deprecated and ignored by Google; remove it`,
        found[0]!.at,
        ctx.url,
      );
  }
  const path = `videos.${index}`;
  const fields: Record<string, Position> = {};
  const video: Video = {};
  for (const [field, local, read] of VIDEO_SCALARS) {
    const child = single(byName, local, ctx);
    const value = child && read(child, ctx);
    if (value === undefined) continue;
    (video as Record<string, unknown>)[field] = value;
    fields[field] = child!.valueAt;
    if (local === 'player_loc') {
      for (const deprecated of ['allow_embed', 'autoplay']) {
        if (attribute(child!, deprecated) !== undefined) {
          ctx.report(
            'VID-011',
            `the ${deprecated} attribute of <${child!.qname}> is deprecated; remove it`,
            child!.at,
            ctx.url,
          );
        }
      }
    }
  }
  const restriction = single(byName, 'restriction', ctx);
  if (restriction) {
    const relationship = readRelationship(restriction, 'VID-007', ctx);
    const countries = (readText(restriction, ctx, ctx.url) ?? '').split(/\s+/).filter((c) => c !== '');
    // An empty one is reported by readText (XML-010) and restricts nothing: it is left out.
    if (relationship !== undefined && countries.length > 0) {
      video.restriction = { relationship, countries };
      fields['restriction'] = restriction.valueAt;
    }
  }
  const platform = single(byName, 'platform', ctx);
  if (platform) {
    const relationship = readRelationship(platform, 'VID-008', ctx);
    const names = (readText(platform, ctx, ctx.url) ?? '').split(/\s+/).filter((p) => p !== '');
    const platforms = names.length === 0 ? undefined : reportAt(readPlatforms(names), platform, ctx, platform.valueAt);
    if (relationship !== undefined && platforms !== undefined) {
      video.platform = { relationship, platforms };
      fields['platform'] = platform.valueAt;
    }
  }
  const uploader = single(byName, 'uploader', ctx);
  const uploaderName = uploader && readText(uploader, ctx, ctx.url);
  if (uploader && uploaderName !== undefined) {
    const info = attribute(uploader, 'info');
    const infoUrl = info === undefined ? undefined : reportAt(readAttributeUrl(info, ctx), uploader, ctx);
    video.uploader = infoUrl === undefined ? { name: uploaderName } : { name: uploaderName, info: infoUrl };
    fields['uploader'] = uploader.valueAt;
  }
  const tags: string[] = [];
  for (const tag of byName.get('tag') ?? []) {
    const value = readText(tag, ctx, ctx.url);
    if (value === undefined) continue;
    fields[`tags.${tags.length}`] = tag.valueAt;
    tags.push(value);
  }
  if (tags.length > 0) {
    video.tags = tags;
    fields['tags'] = byName.get('tag')![0]!.at;
  }
  // An incomplete video keeps what it has: a crawler may still want its thumbnail or its player.
  const missing = missingVideoProblem(video);
  const empty = Object.keys(video).length === 0;
  if (missing)
    ctx.report(missing.code, `<${node.qname}>: ${missing.message}${empty ? '; left out' : ''}`, node.at, ctx.url);
  if (empty) return undefined;
  ctx.fields[path] = node.at;
  for (const [field, at] of Object.entries(fields)) ctx.fields[`${path}.${field}`] = at;
  return orderVideo(video);
}

/** The entry model's key order, so that JSON output reads the same whatever the document's order. */
function orderVideo(video: Video): Video {
  const { thumbnailLoc, title, description, ...rest } = video;
  const ordered: Video = {};
  if (thumbnailLoc !== undefined) ordered.thumbnailLoc = thumbnailLoc;
  if (title !== undefined) ordered.title = title;
  if (description !== undefined) ordered.description = description;
  return Object.assign(ordered, rest);
}

/** Reports a checker's problems at `at` in the element; the value, or undefined when it is left out. */
function reportAt<T>(checked: Checked<T>, node: XmlNode, ctx: BlockContext, at = node.at): T | undefined {
  for (const found of checked.problems) {
    const message = `<${node.qname}>: ${found.message}${checked.value === undefined ? '; left out' : ''}`;
    ctx.report(found.code, message, at, ctx.url, found.severity);
  }
  return checked.value;
}

/** A URL in an attribute (uploader info, alternate href), read as an extension's URL. */
function readAttributeUrl(value: string, ctx: BlockContext, code = 'URL-001'): Checked<string> {
  return readUrlRule(value, { mode: 'as-written', field: 'extension', base: ctx.baseUrl, code });
}

function readRelationship(node: XmlNode, code: string, ctx: BlockContext): Relationship | undefined {
  return reportAt(readRelationshipRule(attribute(node, 'relationship'), code), node, ctx);
}

// ── news ──────────────────────────────────────────────────────────────────────────────────────

const NEWS_TAGS = new Set([
  'publication',
  'publication_date',
  'title',
  'keywords',
  'genres',
  'stock_tickers',
  'access',
]);

export function readNews(node: XmlNode, ctx: BlockContext): News | undefined {
  const byName = childrenByName(node, NS.news, ctx);
  reportUnknown(byName, NEWS_TAGS, ctx);
  const access = single(byName, 'access', ctx);
  if (access) {
    ctx.report('NEWS-007', `<${access.qname}> is a retired news tag; remove it`, access.at, ctx.url);
    const value = textContent(access).trim();
    if (value !== 'Subscription' && value !== 'Registration') {
      ctx.report(
        'XML-010',
        `<${access.qname}> must be Subscription or Registration, not "${abbreviate(value)}"`,
        access.valueAt,
        ctx.url,
      );
    }
  }
  const publication = single(byName, 'publication', ctx);
  const publicationTags = publication ? childrenByName(publication, NS.news, ctx) : new Map<string, XmlNode[]>();
  if (publication) reportUnknown(publicationTags, new Set(['name', 'language']), ctx);
  const nameNode = single(publicationTags, 'name', ctx);
  const languageNode = single(publicationTags, 'language', ctx);
  const dateNode = single(byName, 'publication_date', ctx);
  const titleNode = single(byName, 'title', ctx);
  const name = nameNode && readText(nameNode, ctx, ctx.url);
  const language = languageNode && readText(languageNode, ctx, ctx.url);
  const publicationDate = dateNode && readText(dateNode, ctx, ctx.url);
  const title = titleNode && readText(titleNode, ctx, ctx.url);
  // An incomplete news block keeps what it has, in the entry model's order.
  const news: News = {};
  if (name !== undefined || language !== undefined) {
    news.publication = {};
    if (name !== undefined) news.publication.name = name;
    if (language !== undefined) news.publication.language = language;
  }
  if (publicationDate !== undefined) news.publicationDate = publicationDate;
  if (title !== undefined) news.title = title;
  const missing = missingNewsProblem(news);
  const empty = Object.keys(news).length === 0;
  if (missing)
    ctx.report(missing.code, `<${node.qname}>: ${missing.message}${empty ? '; left out' : ''}`, node.at, ctx.url);
  if (empty) return undefined;
  ctx.fields['news'] = node.at;
  if (name !== undefined) ctx.fields['news.publication.name'] = nameNode!.valueAt;
  if (language !== undefined) ctx.fields['news.publication.language'] = languageNode!.valueAt;
  if (publicationDate !== undefined) ctx.fields['news.publicationDate'] = dateNode!.valueAt;
  if (title !== undefined) ctx.fields['news.title'] = titleNode!.valueAt;
  const lists: [keyof Pick<News, 'keywords' | 'genres' | 'stockTickers'>, string][] = [
    ['keywords', 'keywords'],
    ['genres', 'genres'],
    ['stockTickers', 'stock_tickers'],
  ];
  for (const [field, local] of lists) {
    const child = single(byName, local, ctx);
    const value = child && readList(child, ctx, ctx.url);
    if (value !== undefined) {
      news[field] = value;
      ctx.fields[`news.${field}`] = child!.valueAt;
    }
  }
  return news;
}

// ── xhtml:link ────────────────────────────────────────────────────────────────────────────────

/**
 * An hreflang alternate; links with another rel (amphtml …) are not alternates and are skipped.
 * The value of hreflang is the validator's to judge (HREF-002); an href that is no absolute URL
 * is flagged (HREF-001) and kept as written, or resolved when it is a path.
 */
export function readAlternate(node: XmlNode, index: number, ctx: BlockContext): Alternate | undefined {
  const rel = attribute(node, 'rel')?.trim().toLowerCase();
  if (rel !== undefined && rel !== 'alternate') return undefined;
  const hreflang = attribute(node, 'hreflang')?.trim();
  const rawHref = attribute(node, 'href');
  const missing = [rel === undefined && 'rel', !hreflang && 'hreflang', !rawHref?.trim() && 'href'].filter(
    (name): name is string => name !== false,
  );
  if (missing.length > 0) {
    ctx.report('HREF-001', `<${node.qname}> lacks ${missing.join(', ')}; the alternate is left out`, node.at, ctx.url);
    return undefined;
  }
  const href = reportAt(readAttributeUrl(rawHref!, ctx, 'HREF-001'), node, ctx);
  if (href === undefined) return undefined;
  ctx.fields[`alternates.${index}`] = node.at;
  return { hreflang: hreflang!, href };
}
