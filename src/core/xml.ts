/**
 * XML text safety for writers: escape the five XML entities and drop the characters XML 1.0
 * forbids (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates).
 */

/* eslint-disable no-control-regex -- finding the control characters XML forbids is the point */
const NEEDS_WORK = /[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
const MAY_NEED_STRIPPING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
const FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */
const SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const AMP = /&/g;
const LT = /</g;
const GT = />/g;
const QUOT = /"/g;
const APOS = /'/g;

/**
 * Text made safe for XML content and attribute values. The common case (nothing to do) is one
 * test; the next most common on the writer's hot path (URLs with `&`, nothing forbidden) takes
 * plain string replacements, several times faster than one replace with a callback.
 */
export function escapeXml(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  if (MAY_NEED_STRIPPING.test(text)) return text.replace(FORBIDDEN, '').replace(SPECIAL, (ch) => ENTITY[ch]!);
  let escaped = text;
  if (escaped.includes('&')) escaped = escaped.replace(AMP, '&amp;');
  if (escaped.includes('<')) escaped = escaped.replace(LT, '&lt;');
  if (escaped.includes('>')) escaped = escaped.replace(GT, '&gt;');
  if (escaped.includes('"')) escaped = escaped.replace(QUOT, '&quot;');
  if (escaped.includes("'")) escaped = escaped.replace(APOS, '&apos;');
  return escaped;
}

/** Removes only the characters XML 1.0 forbids, leaving entities alone. */
export function stripForbiddenXmlChars(text: string): string {
  return text.replace(FORBIDDEN, '');
}

/** True when the text holds a character XML 1.0 forbids (docs/rules.md XML-006). */
export function hasForbiddenXmlChar(text: string): boolean {
  FORBIDDEN.lastIndex = 0;
  const found = FORBIDDEN.test(text);
  FORBIDDEN.lastIndex = 0;
  return found;
}
