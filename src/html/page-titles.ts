/**
 * A page's title and first heading, as its tags show them: the `<title>` of the head, and the
 * first `<h1>`, else the first `<h2>` (a "not found" page often has no `<h1>`). The one rule
 * for what `generate DIR` and the audit call a page's title and heading, fed by whichever reader
 * meets the tags (./page-head.ts with htmlparser2, ./head-scanner.ts by hand).
 */

/** Text kept of a title or heading: enough to show, and to tell a "not found" page. */
export const MAX_TITLE_CHARS = 512;

/** Whitespace collapsed, trimmed, at most MAX_TITLE_CHARS. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS);
}

type Titled = 'title' | 'h1' | 'h2';

/** Reads the title and first heading from the elements a reader of the page meets, in order. */
export class PageTitles {
  private readonly found: { [name in Titled]?: string } = {};
  /** The element whose text is being read; undefined outside all three. */
  private reading: { name: Titled; text: string } | undefined;

  /** The text of the head's `<title>`, whitespace collapsed; undefined when empty or missing. */
  get title(): string | undefined {
    return this.found.title;
  }

  /** The text of the first `<h1>`, else of the first `<h2>`; undefined when neither has any. */
  get heading(): string | undefined {
    return this.found.h1 ?? this.found.h2;
  }

  /** True while the text met belongs to a title or heading. */
  get isReading(): boolean {
    return this.reading !== undefined;
  }

  /**
   * An element opens. A `<title>` counts in the head only (one in the body is an SVG's); an empty
   * one is not kept, so the next is read.
   */
  opened(name: string, inHead: boolean): void {
    if (name === 'title' ? inHead && this.found.title === undefined : this.wantsHeading(name))
      this.reading = { name: name as Titled, text: '' };
  }

  /** Text met (raw: character references decoded, white space as written). */
  text(text: string): void {
    if (this.reading !== undefined && this.reading.text.length < MAX_TITLE_CHARS) this.reading.text += text;
  }

  /** An element closes, by its end tag or implied. */
  closed(name: string): void {
    if (this.reading === undefined || (name !== 'title' && name !== 'h1' && name !== 'h2')) return;
    const text = collapse(this.reading.text);
    if (text !== '') this.found[this.reading.name] = text;
    this.reading = undefined;
  }

  private wantsHeading(name: string): boolean {
    if (name === 'h1') return this.found.h1 === undefined;
    return name === 'h2' && this.found.h1 === undefined && this.found.h2 === undefined;
  }
}
