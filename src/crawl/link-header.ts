/**
 * The HTTP `Link:` header (RFC 8288) as far as a sitemap cares: `rel="canonical"` and
 * `rel="alternate"; hreflang="…"`.
 */

export interface LinkValue {
  target: string;
  rel: string[];
  hreflang?: string;
}

/**
 * Splits a header into its links. Commas inside `<…>` or quoted strings do not separate links,
 * so URLs and parameters with commas survive. Malformed pieces are skipped.
 */
export function parseLinkHeader(header: string): LinkValue[] {
  const links: LinkValue[] = [];
  let index = 0;
  while (index < header.length) {
    const open = header.indexOf('<', index);
    if (open === -1) break;
    const close = header.indexOf('>', open);
    if (close === -1) break;
    const target = header.slice(open + 1, close).trim();
    const { params, end } = readParams(header, close + 1);
    const rel = (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const hreflang = params.get('hreflang');
    links.push(hreflang === undefined ? { target, rel } : { target, rel, hreflang });
    index = end;
  }
  return links;
}

/** Reads `; name=value; name="quoted, value"` up to the comma that ends this link. */
function readParams(header: string, start: number): { params: Map<string, string>; end: number } {
  const params = new Map<string, string>();
  const pattern = /\s*;\s*([A-Za-z0-9!#$&+\-.^_`|~*]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/y;
  pattern.lastIndex = start;
  let end = start;
  for (let match = pattern.exec(header); match; match = pattern.exec(header)) {
    const name = match[1]!.toLowerCase();
    // RFC 8288: only the first occurrence of a parameter counts.
    if (!params.has(name)) params.set(name, (match[2]?.replace(/\\(.)/g, '$1') ?? match[3] ?? '').trim());
    end = pattern.lastIndex;
  }
  const comma = header.indexOf(',', end);
  return { params, end: comma === -1 ? header.length : comma + 1 };
}
