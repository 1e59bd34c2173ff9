/** Numbers of the protocol and of the search engines (docs/rules.md). */
export const LIMITS = {
  /** URLs per urlset or text file, and children per index. */
  maxUrlsPerSitemap: 50_000,
  maxSitemapsPerIndex: 50_000,
  /** Uncompressed bytes of one document, closing tag included. */
  maxBytesPerSitemap: 52_428_800,
  /** The pre-2016 limit, still quoted by older engine documentation. */
  legacyMaxBytes: 10_485_760,
  /** `loc` must be fewer than this many characters. */
  maxUrlLength: 2_048,
  /** The XSD's anyURI minimum length. */
  minUrlLength: 12,
  yandexMaxUrlLength: 1_024,
  yandexMaxValueBytes: 100,
  maxImagesPerUrl: 1_000,
  maxNewsPerSitemap: 1_000,
  newsMaxAgeHours: 48,
  videoMinDuration: 1,
  videoMaxDuration: 28_800,
  videoMaxRating: 5,
  videoMaxTags: 32,
  videoMaxDescription: 2_048,
  videoMaxTitle: 100,
  videoMaxUploader: 255,
  robotsMaxBytes: 512_000,
  robotsMaxRedirects: 5,
  indexNowMaxUrls: 10_000,
} as const;
