/** Entries shared by the generator tests: one that uses every tag the writer knows, and helpers. */
import type { UrlEntry } from '../../src/core/index.js';

export const BASE_URL = 'https://www.example.com/';

/** Every core tag, two images with every image tag, a video with every tag, news, hreflang; text with XML specials. */
export const FULL_ENTRY: UrlEntry = {
  kind: 'url',
  loc: 'https://www.example.com/shop/tent?size=2p&colour=green',
  lastmod: '2024-05-01T10:00:00+02:00',
  changefreq: 'weekly',
  priority: 0.8,
  images: [
    {
      loc: 'https://cdn.example.com/tent/front.jpg',
      caption: 'Tent <front> & "door"',
      title: "Ann's tent",
      geoLocation: 'Innsbruck, Austria',
      license: 'https://www.example.com/image-license',
    },
    { loc: 'https://cdn.example.com/tent/side.jpg' },
  ],
  videos: [
    {
      thumbnailLoc: 'https://cdn.example.com/tent/thumb.jpg',
      title: 'Pitching the tent',
      description: 'Stakes & guy lines, <fast>',
      contentLoc: 'https://cdn.example.com/tent/video.mp4',
      playerLoc: 'https://www.example.com/player?v=tent&autoplay=0',
      duration: 412,
      expirationDate: '2030-01-01',
      rating: 4.5,
      viewCount: 1234,
      publicationDate: '2024-05-01T07:45:00+02:00',
      familyFriendly: true,
      restriction: { relationship: 'deny', countries: ['KP', 'IR'] },
      platform: { relationship: 'allow', platforms: ['web', 'tv'] },
      requiresSubscription: false,
      uploader: { name: 'Example Outdoors', info: 'https://www.example.com/about/' },
      live: false,
      tags: ['camping', 'tents'],
    },
  ],
  news: {
    publication: { name: 'Example Times', language: 'en' },
    publicationDate: '2024-05-01',
    title: 'Tents & wind: a guide',
    keywords: ['tents', 'camping'],
    genres: ['Blog', 'OpEd'],
    stockTickers: ['NASDAQ:EXMP'],
  },
  alternates: [
    { hreflang: 'en', href: 'https://www.example.com/shop/tent?size=2p&colour=green' },
    { hreflang: 'de-AT', href: 'https://www.example.com/de/shop/zelt' },
    { hreflang: 'x-default', href: 'https://www.example.com/shop/tent' },
  ],
};

/** `count` plain entries with distinct URLs (and a lastmod that varies by day). */
export function* plainEntries(count: number, prefix = 'page'): Generator<UrlEntry> {
  for (let i = 0; i < count; i++) {
    yield {
      kind: 'url',
      loc: `${BASE_URL}${prefix}/${i}`,
      lastmod: `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`,
    };
  }
}

/** The `<loc>` values of the `<url>` (or `<sitemap>`) children of a document, unescaped. */
export function locsOf(xml: string): string[] {
  return [...xml.matchAll(/<(?:url|sitemap)\b[^>]*>\s*<loc>([^<]*)<\/loc>/g)].map((m) =>
    m[1]!.replace(/&amp;/g, '&').replace(/&apos;/g, "'"),
  );
}
