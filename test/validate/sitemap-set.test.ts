/**
 * The validator of a set that someone else reads (the tree walk of `audit`): the cross-file rules
 * report on the right document after every document has ended, and a document that has ended
 * holds nothing, for a walk may read a million of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { Alternate } from '../../src/core/entry.js';
import type { LocatedEntry } from '../../src/parse/types.js';
import { SitemapSetValidator } from '../../src/validate/sitemap-set.js';

const NOW = Date.parse('2026-11-28T00:00:00Z');

function located(loc: string, alternates?: Alternate[]): LocatedEntry {
  return {
    entry: { kind: 'url', loc, ...(alternates ? { alternates } : {}) },
    location: { line: 3, column: 3, fields: { loc: { line: 3, column: 8 } } },
  };
}

/** Reads one document of `set` with `entries`, its own diagnostics to `report`. */
function read(set: SitemapSetValidator, url: string, entries: LocatedEntry[], report: (d: Diagnostic) => void): void {
  const checks = set.document({ url, finalUrl: url, crossSubmitted: true, report });
  for (const entry of entries) checks.entry(entry);
  checks.end('urlset', false);
}

describe('SitemapSetValidator', () => {
  it('reports a missing return link at finish on the document that named the alternate', () => {
    const set = new SitemapSetValidator({ now: NOW });
    const a = 'https://www.example.com/en/a';
    const b = 'https://www.example.com/de/a';
    const own: Diagnostic[] = [];
    read(set, 'https://www.example.com/plain.xml', [located('https://www.example.com/x')], (d) => own.push(d));
    read(
      set,
      'https://www.example.com/en.xml',
      [
        located(a, [
          { hreflang: 'en', href: a },
          { hreflang: 'de', href: b },
        ]),
      ],
      (d) => own.push(d),
    );
    read(set, 'https://www.example.com/de.xml', [located(b)], (d) => own.push(d));
    const atFinish: Diagnostic[] = [];
    set.finish((d) => atFinish.push(d), 'all sitemaps');
    const missing = atFinish.filter((d) => d.code === 'HREF-004');
    assert.equal(missing.length, 1, JSON.stringify(atFinish));
    assert.equal(missing[0]?.source, 'https://www.example.com/en.xml');
    assert.equal(missing[0]?.url, a);
    assert.ok(!own.some((d) => d.code === 'HREF-004'), 'reported once, at finish');
  });

  it('holds nothing of a document once it has ended (no reader’s sink, no rules’ state)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const set = new SitemapSetValidator({ now: NOW });
    let next = 0;
    const readMany = (count: number) => {
      for (let i = 0; i < count; i++, next++) {
        // The reader's sink holds its own state (the walk's node): 4 KB here, to be seen.
        const node = new Uint8Array(4096);
        read(set, `https://www.example.com/s/${next}.xml`, [located(`https://www.example.com/p/${next}`)], (d) => {
          node[0] = d.line ?? 0;
        });
      }
      gc();
      gc();
      return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    };
    readMany(500);
    const before = readMany(1_000);
    const perDocument = (readMany(5_000) - before) / 5_000;
    assert.ok(perDocument < 500, `${Math.round(perDocument)} bytes held a document`);
  });
});
