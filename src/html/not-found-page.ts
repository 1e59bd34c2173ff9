/**
 * Whether a page says it is a "not found" page: its `<title>` and first heading (`<h1>`, else the
 * first `<h2>`) read as an error page's, in the words sites use ("404", "Page not found", "This
 * page does not exist", "Seite nicht gefunden", "Page introuvable"…). Such a page answering 200
 * is a soft 404: search engines drop it, and a sitemap should not list it.
 *
 * The words are read by ./not-found-words.ts (no parser: a reader of heads that has the title
 * already loads only them); this module reads the title and heading of a whole page.
 */
import { Parser } from 'htmlparser2';
import type { TitleAndHeading } from './not-found-words.js';
import { PARSER_OPTIONS, type TagHandler } from './one-pass.js';

export { saysNotFound, type TitleAndHeading } from './not-found-words.js';

/** Text kept of a title or heading at most: enough to recognise one, never a whole page. */
const MAX_CHARS = 300;

/** Reads the title and first heading of a page from its text or UTF-8 bytes. */
export function readTitleAndHeading(chunks: Iterable<Uint8Array | string>): TitleAndHeading {
  const reader = titleAndHeadingReader();
  const parser = new Parser(reader.handler, PARSER_OPTIONS);
  const decoder = new TextDecoder('utf-8');
  for (const chunk of chunks) parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  parser.end(decoder.decode());
  return reader.result();
}

/** The title and first heading as a reader of a page's tokens (see ./one-pass.ts). */
export function titleAndHeadingReader(): { handler: TagHandler; result: () => TitleAndHeading } {
  const found: { title?: string; h1?: string; h2?: string } = {};
  let reading: 'title' | 'h1' | 'h2' | undefined;
  let text = '';
  const handler: TagHandler = {
    onopentag(name) {
      if (reading === undefined && (name === 'title' || name === 'h1' || name === 'h2') && found[name] === undefined) {
        reading = name;
        text = '';
      }
    },
    ontext(piece) {
      if (reading !== undefined && text.length < MAX_CHARS) text += piece.slice(0, MAX_CHARS - text.length);
    },
    onclosetag(name) {
      if (name !== reading) return;
      const value = text.replace(/\s+/g, ' ').trim();
      if (value !== '') found[reading] = value;
      reading = undefined;
    },
  };
  return {
    handler,
    result() {
      const heading = found.h1 ?? found.h2;
      return {
        ...(found.title === undefined ? {} : { title: found.title }),
        ...(heading === undefined ? {} : { heading }),
      };
    },
  };
}
