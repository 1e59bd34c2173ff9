/**
 * Whether a page says it is a "not found" page: its `<title>` and first heading (`<h1>`, else the
 * first `<h2>`) read as an error page's, in the words sites use ("404", "Page not found", "This
 * page does not exist", "Seite nicht gefunden", "Page introuvable"…). Such a page answering 200
 * is a soft 404: search engines drop it, and a sitemap should not list it.
 *
 * The words alone, from a title and heading already read (by the head scanner of a build folder,
 * by the audit's page reader): no parser is loaded with them.
 */

/** A page's title and first heading, white space collapsed (undefined when it has none). */
export interface TitleAndHeading {
  title?: string;
  heading?: string;
}

/**
 * What an error page's title or heading says, as a whole part of it (parts are split at " | ",
 * " · ", " – ", ": " …, so "Page not found · Docs" is read as "Page not found" and "Docs"): a
 * page about 404 errors ("Fixing 404 errors", "Module not found") says something else.
 */
const NOT_FOUND_PARTS = [
  /^(?:error\s*)?404(?:\s*error)?$/,
  /^(?:(?:error\s*)?404\s*[-–—]?\s*)?(?:(?:the\s+)?(?:page|file|document|url|resource|content)\s+)?not\s+found$/,
  /^(?:(?:sorry|oops)\W*\s*)?(?:this|the|that)\s+(?:page|file|document|url)\s+(?:does\s*n[o']t|did\s*n[o']t|no\s+longer)\s+exists?$/,
  /^(?:(?:sorry|oops)\W*\s*)?(?:this|the|that)\s+(?:page|file|document|url)\s+(?:can\s*not|can't|could\s*n[o']t)\s+be\s+found$/,
  /^(?:404\s*)?(?:(?:seite|datei)\s+)?nicht\s+gefunden$/,
  /^(?:404\s*)?page\s+introuvable$/,
  /^(?:404\s*)?p[áa]gina\s+no\s+encontrada$/,
  /^(?:404\s*)?pagina\s+non\s+trovata$/,
  /^(?:404\s*)?pagina\s+niet\s+gevonden$/,
];

const PART_SEPARATORS = /\s+[|·•–—-]\s+|\s*[|·•]\s*|:\s+/;

/** A word every pattern of NOT_FOUND_PARTS holds one of: a title without any cannot match (most titles). */
const NOT_FOUND_WORD = /404|not|n['’]t|no\s+longer|nicht|introuvable|encontrada|trovata|gevonden/i;

function saysItAlone(text: string): boolean {
  if (!NOT_FOUND_WORD.test(text)) return false;
  return text
    .toLowerCase()
    .split(PART_SEPARATORS)
    .map((part) => part.trim().replace(/[.!]+$/, ''))
    .some((part) => NOT_FOUND_PARTS.some((pattern) => pattern.test(part)));
}

/**
 * Whether the title and first heading say "not found": both, when the page has both; the one it
 * has, when it has only one. Why in words, or undefined.
 */
export function saysNotFound({ title, heading }: TitleAndHeading): string | undefined {
  const says = (text: string | undefined) => text !== undefined && saysItAlone(text);
  if (title === undefined && heading === undefined) return undefined;
  if ((title === undefined || says(title)) && (heading === undefined || says(heading))) {
    const parts = [
      ...(title === undefined ? [] : [`its title "${title}"`]),
      ...(heading === undefined ? [] : [`its first heading "${heading}"`]),
    ];
    return `${parts.join(' and ')} say${parts.length === 1 ? 's' : ''} it is a "not found" page`;
  }
  return undefined;
}
