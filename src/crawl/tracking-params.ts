/**
 * Query parameters that say where a visitor came from (a campaign, an ad click, a newsletter), never
 * which page it is: `/shop/?utm_source=nl` is `/shop/`. The crawl removes them from every URL it
 * meets unless told to keep one (`--keep-param`), so one page is one URL in the sitemaps. The
 * list is the widely used campaign tags and the click identifiers of the large ad and mail
 * platforms (as the query-stripping lists of Firefox and Brave remove them). Names are globs,
 * matched without regard to case.
 */
import picomatch from 'picomatch';

/**
 * The query parameters the crawler removes from every URL unless kept (`keepParams`): analytics and
 * ad-click identifiers such as `utm_*`, `gclid` and `fbclid`.
 */
export const TRACKING_PARAMS: readonly string[] = [
  // Campaign tags: Google Analytics (utm_*), Matomo, Piwik, Adobe Analytics.
  'utm_*',
  'mtm_*',
  'pk_campaign',
  'pk_kwd',
  'pk_source',
  'pk_medium',
  'pk_content',
  's_cid',
  // Ad clicks: Google Ads and Merchant Center, DoubleClick, Microsoft, Meta, X, TikTok, LinkedIn, Yandex.
  'gclid',
  'gclsrc',
  'gbraid',
  'wbraid',
  'dclid',
  'srsltid',
  'msclkid',
  'fbclid',
  'igshid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'yclid',
  // Cross-domain analytics: Google Analytics linker.
  '_ga',
  '_gl',
  // Mail and marketing automation: Mailchimp, HubSpot, Marketo, Vero, Olytics.
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'hsCtaTracking',
  'mkt_tok',
  'vero_id',
  'vero_conv',
  'oly_anon_id',
  'oly_enc_id',
];

/** Decides whether a query parameter is removed, by its (decoded) name. */
export type ParamFilter = (name: string) => boolean;

export interface ParamRules {
  /** Globs of names to remove besides TRACKING_PARAMS (`session*`). */
  strip?: readonly string[] | undefined;
  /** Globs of names to keep even when a strip glob matches (`utm_campaign`, or `*` for all). */
  keep?: readonly string[] | undefined;
}

/** TRACKING_PARAMS and `strip`, less `keep`. */
export function paramFilter({ strip = [], keep = [] }: ParamRules = {}): ParamFilter {
  const removes = picomatch([...TRACKING_PARAMS, ...strip], { nocase: true, dot: true });
  if (keep.length === 0) return removes;
  const keeps = picomatch([...keep], { nocase: true, dot: true });
  return (name) => removes(name) && !keeps(name);
}
