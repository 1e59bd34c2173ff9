/**
 * Entity and character references: the five predefined entities and `&#…;` are expanded, nothing
 * else ever is (no DTD is processed). What cannot be expanded is reported through `EntityReporter`
 * and handled the lenient way: a raw `&` stays a literal `&`, a reference to an entity declared in
 * a DOCTYPE is dropped, any other unknown reference stays as written.
 */

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The longest reference we look for a `;` in (`&#x10FFFF;` and any sane entity name fit). */
const MAX_REFERENCE_LENGTH = 64;

const NAME = /^[A-Za-z_:\u00C0-\uFFFF][\w.:\-\u00B7\u00C0-\uFFFF]*$/;

export type EntityProblem =
  | { kind: 'raw-ampersand'; offset: number }
  | { kind: 'declared-entity'; offset: number; name: string }
  | { kind: 'undeclared-entity'; offset: number; name: string }
  | { kind: 'bad-char-ref'; offset: number; text: string };

export type EntityReporter = (problem: EntityProblem) => void;

/** True for code points XML 1.0 allows in a document (§2.2). */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * Expands the references in `text` (which contains at least one `&`). `declared` names the
 * entities a DOCTYPE declared; offsets in reports are relative to `text`.
 */
export function decodeReferences(text: string, declared: ReadonlySet<string>, report: EntityReporter): string {
  let out = '';
  let from = 0;
  let amp = text.indexOf('&');
  while (amp !== -1) {
    out += text.slice(from, amp);
    const semi = text.indexOf(';', amp + 1);
    const body = semi === -1 || semi - amp > MAX_REFERENCE_LENGTH ? undefined : text.slice(amp + 1, semi);
    const expanded = body === undefined ? undefined : expandReference(body, amp, declared, report);
    if (expanded === undefined) {
      report({ kind: 'raw-ampersand', offset: amp });
      out += '&';
      from = amp + 1;
    } else {
      out += expanded;
      from = semi + 1;
    }
    amp = text.indexOf('&', from);
  }
  return out + text.slice(from);
}

/** The expansion of `&body;`, or undefined when `body` is not a reference at all (a raw `&`). */
function expandReference(
  body: string,
  offset: number,
  declared: ReadonlySet<string>,
  report: EntityReporter,
): string | undefined {
  if (body.charCodeAt(0) === 0x23 /* # */) {
    const hex = body.charCodeAt(1) === 0x78; /* x */
    const digits = body.slice(hex ? 2 : 1);
    if (!(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) return undefined;
    const cp = parseInt(digits, hex ? 16 : 10);
    if (!isXmlChar(cp)) {
      report({ kind: 'bad-char-ref', offset, text: `&${body};` });
      return '';
    }
    return String.fromCodePoint(cp);
  }
  const predefined = PREDEFINED[body];
  if (predefined !== undefined) return predefined;
  if (!NAME.test(body)) return undefined;
  if (declared.has(body)) {
    report({ kind: 'declared-entity', offset, name: body });
    return '';
  }
  report({ kind: 'undeclared-entity', offset, name: body });
  return `&${body};`;
}
