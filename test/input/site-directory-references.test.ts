import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSiteDirectory } from '../../src/input/site-directory.js';

// Its own file, so its own process: the head scanner's decoder of character references is loaded
// by the folder reader itself, at the first head that needs it (html/head-scanner.ts).

test('character references in a head are decoded, the first time by loading the decoder and reading again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-site-references-'));
  try {
    const head = (title: string, links: string) =>
      `<!doctype html><html lang="en"><head><title>${title}</title>${links}</head><body><p>text</p></body></html>`;
    await writeFile(join(dir, 'a.html'), head('Plain', ''));
    await writeFile(
      join(dir, 'b.html'),
      head('Q&amp;A &copy; 2024', '<link rel="alternate" hreflang="de" href="/de/b.html?x=1&amp;y=2">'),
    );
    // Past the first read's bytes: the reader reads this one through the chunks of its file.
    await writeFile(join(dir, 'c.html'), head('Tom &amp; Jerry', `<style>${'.c{}'.repeat(5000)}</style>`));
    const read: { loc: string; title?: string; alternates?: unknown }[] = [];
    for await (const { entry, title } of readSiteDirectory(dir, { baseUrl: 'https://example.com/' }))
      read.push({
        loc: entry.loc,
        ...(title === undefined ? {} : { title }),
        ...(entry.alternates ? { alternates: entry.alternates } : {}),
      });
    assert.deepEqual(read, [
      { loc: 'https://example.com/a.html', title: 'Plain' },
      {
        loc: 'https://example.com/b.html',
        title: 'Q&A © 2024',
        alternates: [
          { hreflang: 'de', href: 'https://example.com/de/b.html?x=1&y=2' },
          { hreflang: 'en', href: 'https://example.com/b.html' },
        ],
      },
      { loc: 'https://example.com/c.html', title: 'Tom & Jerry' },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
