/**
 * Google's extensions inside a `<url>`: image 1.1, video 1.1 (every tag and attribute), news 0.9
 * and `xhtml:link` alternates, mapped to the entry model. A block that lacks a required child is
 * dropped with its rule (IMG-001, VID-001, NEWS-001, HREF-001); the URL itself is always kept.
 */
import type { Alternate, Image, News, Relationship, Video, VideoPlatform } from '../../core/entry.js';
import { LEGACY_SITEMAP_NS, NS } from '../../core/namespaces.js';
import type { Position } from '../../core/position.js';
import { attribute, textContent, type XmlNode } from '../xml/block.js';
import { IMAGE_FIELDS, setField } from './fields.js';
import { readList, readNumber, readText, readUrl, readYesNo, abbreviate, type ValueContext } from './values.js';

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
const IMAGE_VALUES = { url: readUrl, text: readText } as const;

export function readImage(node: XmlNode, index: number, ctx: BlockContext): Image | undefined {
  const byName = childrenByName(node, NS.image, ctx);
  reportUnknown(byName, IMAGE_TAGS, ctx);
  const locNode = single(byName, 'loc', ctx);
  const loc = locNode && readUrl(locNode, ctx, ctx.url);
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
    const value = child && IMAGE_VALUES[kind](child, ctx, ctx.url);
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
const PLATFORMS: readonly VideoPlatform[] = ['web', 'mobile', 'tv'];

type VideoScalar =
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

/** Optional single-valued tags: the field, the tag, and how the value is read. */
const VIDEO_SCALARS: readonly [VideoScalar, string, (node: XmlNode, ctx: BlockContext) => Video[VideoScalar]][] = [
  ['contentLoc', 'content_loc', (n, c) => readUrl(n, c, c.url)],
  ['playerLoc', 'player_loc', (n, c) => readUrl(n, c, c.url)],
  ['duration', 'duration', (n, c) => readNumber(n, c, 'VID-005', c.url)],
  ['expirationDate', 'expiration_date', (n, c) => readText(n, c, c.url)],
  ['rating', 'rating', (n, c) => readNumber(n, c, 'VID-005', c.url)],
  ['viewCount', 'view_count', (n, c) => readNumber(n, c, 'VID-005', c.url)],
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
  const required = (local: string, read: (n: XmlNode) => string | undefined): string | undefined => {
    const child = single(byName, local, ctx);
    const value = child && read(child);
    if (child && value !== undefined) fields[local] = child.valueAt;
    return value;
  };
  const thumbnailLoc = required('thumbnail_loc', (n) => readUrl(n, ctx, ctx.url));
  const title = required('title', (n) => readText(n, ctx, ctx.url));
  const description = required('description', (n) => readText(n, ctx, ctx.url));
  const video: Partial<Video> = {};
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
  const missing = [
    thumbnailLoc === undefined && 'thumbnail_loc',
    title === undefined && 'title',
    description === undefined && 'description',
  ].filter((name): name is string => name !== false);
  if (missing.length > 0) {
    ctx.report(
      'VID-001',
      `<${node.qname}> lacks a valid ${missing.join(', ')}; the video is left out`,
      node.at,
      ctx.url,
    );
    return undefined;
  }
  if (video.contentLoc === undefined && video.playerLoc === undefined) {
    // The entry model can hold such a video; it is kept so that its other values can be checked.
    ctx.report('VID-001', `<${node.qname}> needs <video:content_loc> or <video:player_loc>`, node.at, ctx.url);
  }
  const restriction = single(byName, 'restriction', ctx);
  if (restriction) {
    const relationship = readRelationship(restriction, 'VID-007', ctx);
    const countries = (readText(restriction, ctx, ctx.url) ?? '').split(/\s+/).filter((c) => c !== '');
    if (relationship !== undefined) {
      video.restriction = { relationship, countries };
      fields['restriction'] = restriction.valueAt;
    }
  }
  const platform = single(byName, 'platform', ctx);
  if (platform) {
    const relationship = readRelationship(platform, 'VID-008', ctx);
    const names = (readText(platform, ctx, ctx.url) ?? '').split(/\s+/).filter((p) => p !== '');
    const unknown = names.filter((name) => !(PLATFORMS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      ctx.report(
        'VID-008',
        `<${platform.qname}> allows only web, mobile and tv, not "${abbreviate(unknown.join(' '))}"; left out`,
        platform.valueAt,
        ctx.url,
      );
    } else if (relationship !== undefined) {
      video.platform = { relationship, platforms: names as VideoPlatform[] };
      fields['platform'] = platform.valueAt;
    }
  }
  const uploader = single(byName, 'uploader', ctx);
  const uploaderName = uploader && readText(uploader, ctx, ctx.url);
  if (uploader && uploaderName !== undefined) {
    const info = attribute(uploader, 'info');
    video.uploader = info === undefined ? { name: uploaderName } : { name: uploaderName, info: info.trim() };
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
  ctx.fields[path] = node.at;
  for (const [field, at] of Object.entries(fields))
    ctx.fields[`${path}.${field === 'thumbnail_loc' ? 'thumbnailLoc' : field}`] = at;
  return orderVideo({ thumbnailLoc: thumbnailLoc!, title: title!, description: description!, ...video });
}

/** The entry model's key order, so that JSON output reads the same whatever the document's order. */
function orderVideo(video: Video): Video {
  const { thumbnailLoc, title, description, ...rest } = video;
  return { thumbnailLoc, title, description, ...rest };
}

function readRelationship(node: XmlNode, code: string, ctx: BlockContext): Relationship | undefined {
  const value = attribute(node, 'relationship')?.trim();
  if (value === 'allow' || value === 'deny') return value;
  ctx.report(
    code,
    value === undefined
      ? `<${node.qname}> needs relationship="allow" or "deny"; left out`
      : `<${node.qname}> relationship must be allow or deny, not "${abbreviate(value)}"; left out`,
    node.at,
    ctx.url,
  );
  return undefined;
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
  const missing = [
    name === undefined && 'publication/name',
    language === undefined && 'publication/language',
    publicationDate === undefined && 'publication_date',
    title === undefined && 'title',
  ].filter((tag): tag is string => tag !== false);
  if (missing.length > 0) {
    ctx.report(
      'NEWS-001',
      `<${node.qname}> lacks ${missing.map((tag) => `news:${tag}`).join(', ')}; the news block is left out`,
      node.at,
      ctx.url,
    );
    return undefined;
  }
  const news: News = {
    publication: { name: name!, language: language! },
    publicationDate: publicationDate!,
    title: title!,
  };
  ctx.fields['news'] = node.at;
  ctx.fields['news.publication.name'] = nameNode!.valueAt;
  ctx.fields['news.publication.language'] = languageNode!.valueAt;
  ctx.fields['news.publicationDate'] = dateNode!.valueAt;
  ctx.fields['news.title'] = titleNode!.valueAt;
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

/** An hreflang alternate; links with another rel (amphtml …) are not alternates and are skipped. */
export function readAlternate(node: XmlNode, index: number, ctx: BlockContext): Alternate | undefined {
  const rel = attribute(node, 'rel')?.trim().toLowerCase();
  if (rel !== undefined && rel !== 'alternate') return undefined;
  const hreflang = attribute(node, 'hreflang')?.trim();
  const href = attribute(node, 'href')?.trim();
  const missing = [rel === undefined && 'rel', !hreflang && 'hreflang', !href && 'href'].filter(
    (name): name is string => name !== false,
  );
  if (missing.length > 0) {
    ctx.report('HREF-001', `<${node.qname}> lacks ${missing.join(', ')}; the alternate is left out`, node.at, ctx.url);
    return undefined;
  }
  ctx.fields[`alternates.${index}`] = node.at;
  return { hreflang: hreflang!, href: href! };
}
