/**
 * The fields of the blocks both of the parser's paths read: a `<url>`, an index's `<sitemap>`, an
 * image. For each, in the schema's order: the element, the entry's property it fills (also its
 * path in an entry's location) and the kind of value it holds. The fast path (plain-blocks.ts)
 * builds its expressions from this table, and the general path's block readers (sitemap.ts,
 * extensions.ts) read the same children, in the same order, by the same kinds: a field or kind
 * added here is read by both, or does not compile.
 */
import type { Changefreq, Image, SitemapRef, UrlEntry } from '../../core/entry.js';

/** How a value is read: each path handles every kind (PLAIN_VALUES in plain-patterns.ts, readField in sitemap.ts). */
export type ValueKind = 'url' | 'date' | 'changefreq' | 'priority' | 'text';

export interface Field<Property extends string> {
  readonly tag: string;
  readonly property: Property;
  readonly kind: ValueKind;
}

export const URL_FIELDS = [
  { tag: 'loc', property: 'loc', kind: 'url' },
  { tag: 'lastmod', property: 'lastmod', kind: 'date' },
  { tag: 'changefreq', property: 'changefreq', kind: 'changefreq' },
  { tag: 'priority', property: 'priority', kind: 'priority' },
] as const satisfies readonly Field<keyof UrlEntry>[];

export const SITEMAP_FIELDS = [URL_FIELDS[0], URL_FIELDS[1]] as const satisfies readonly Field<keyof SitemapRef>[];

export const IMAGE_FIELDS = [
  { tag: 'loc', property: 'loc', kind: 'url' },
  { tag: 'caption', property: 'caption', kind: 'text' },
  { tag: 'geo_location', property: 'geoLocation', kind: 'text' },
  { tag: 'title', property: 'title', kind: 'text' },
  { tag: 'license', property: 'license', kind: 'url' },
] as const satisfies readonly Field<keyof Image>[];

/** The properties the tables fill. */
export type FieldProperty = (typeof URL_FIELDS)[number]['property'] | (typeof IMAGE_FIELDS)[number]['property'];

/**
 * Sets a field's value on the entry (or image) it belongs to. A store of its own per property, not
 * one by a variable name: V8 then keeps each store fast, where one store site shared by every
 * name and shape of object costs the fast path a tenth of its speed.
 */
export function setField(target: UrlEntry | SitemapRef | Image, property: FieldProperty, value: string | number): void {
  const fields = target as Partial<Omit<UrlEntry, 'kind'> & Image>;
  switch (property) {
    case 'loc':
      fields.loc = value as string;
      return;
    case 'lastmod':
      fields.lastmod = value as string;
      return;
    case 'changefreq':
      fields.changefreq = value as Changefreq;
      return;
    case 'priority':
      fields.priority = value as number;
      return;
    case 'caption':
      fields.caption = value as string;
      return;
    case 'geoLocation':
      fields.geoLocation = value as string;
      return;
    case 'title':
      fields.title = value as string;
      return;
    case 'license':
      fields.license = value as string;
      return;
    default:
      property satisfies never;
  }
}
