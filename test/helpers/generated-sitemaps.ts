/**
 * Sitemap trees of any size on 127.0.0.1, each document generated when it is asked for (nothing is
 * held), for the tests and benchmarks that measure the memory of a walk. The size is in the path:
 *
 * - `/errors/S-U.xml`: an index of S urlsets of U URLs, each URL breaking four rules (a lastmod
 *   that is no date, a priority above 1, an unknown changefreq, a loc on another host);
 * - `/clean/S-U.xml`: the same tree without an error (the peer of the benchmark);
 * - `/nested/I-C.xml`: an index of I indexes (nested: IDX-002 each) of C children, each child a
 *   urlset of one URL.
 */
import type { ServerResponse } from 'node:http';
import { startSite, type Site } from './site-server.js';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const INDEX = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

export async function startGeneratedSitemaps(): Promise<Site> {
  return startSite((origin) => ({
    '*': (req, res) => {
      const path = new URL(req.url ?? '/', origin).pathname;
      let match: RegExpExecArray | null;
      if ((match = /^\/errors\/(\d+)-(\d+)\.xml$/.exec(path)))
        return index(res, Number(match[1]), (i) => `${origin}/errors/${match![2]}/${i}.xml`);
      if ((match = /^\/errors\/(\d+)\/(\d+)\.xml$/.exec(path))) return brokenUrlset(res, match);
      if ((match = /^\/clean\/(\d+)-(\d+)\.xml$/.exec(path)))
        return index(res, Number(match[1]), (i) => `${origin}/clean/${match![2]}/${i}.xml`);
      if ((match = /^\/clean\/(\d+)\/(\d+)\.xml$/.exec(path))) return cleanUrlset(res, origin, match);
      if ((match = /^\/nested\/(\d+)-(\d+)\.xml$/.exec(path)))
        return index(res, Number(match[1]), (i) => `${origin}/nested/${match![2]}/${i}.xml`);
      if ((match = /^\/nested\/(\d+)\/(\d+)\.xml$/.exec(path)))
        return index(res, Number(match[1]), (i) => `${origin}/leaf/${match![2]}/${i}.xml`);
      if (/^\/leaf\/\d+\/\d+\.xml$/.test(path))
        return xml(res, [
          `${HEAD}${URLSET}<url><loc>${origin}${path.replace('.xml', '.html')}</loc></url>\n</urlset>\n`,
        ]);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    },
  }));
}

function index(res: ServerResponse, children: number, child: (i: number) => string): void {
  xml(
    res,
    generate(INDEX, children, (i) => `<sitemap><loc>${child(i)}</loc></sitemap>\n`, '</sitemapindex>\n'),
  );
}

function brokenUrlset(res: ServerResponse, match: RegExpExecArray): void {
  const [, urls, sitemap] = match;
  const page = (i: number) =>
    `<url><loc>https://elsewhere.example/${sitemap}/${i}</loc><lastmod>someday ${i}</lastmod>` +
    `<changefreq>sometimes</changefreq><priority>${i + 2}</priority></url>\n`;
  xml(res, generate(URLSET, Number(urls), page, '</urlset>\n'));
}

function cleanUrlset(res: ServerResponse, origin: string, match: RegExpExecArray): void {
  const [, urls, sitemap] = match;
  const page = (i: number) => `<url><loc>${origin}/${sitemap}/${i}</loc><lastmod>2024-05-01</lastmod></url>\n`;
  xml(res, generate(URLSET, Number(urls), page, '</urlset>\n'));
}

/** The document in pieces of a thousand items, written as the socket drains. */
function* generate(open: string, count: number, item: (i: number) => string, close: string): Generator<string> {
  yield HEAD + open;
  for (let start = 0; start < count; start += 1000) {
    let piece = '';
    for (let i = start; i < Math.min(count, start + 1000); i++) piece += item(i);
    yield piece;
  }
  yield close;
}

function xml(res: ServerResponse, pieces: Iterable<string>): void {
  res.writeHead(200, { 'content-type': 'application/xml' });
  const iterator = pieces[Symbol.iterator]();
  const more = (): void => {
    for (let next = iterator.next(); !next.done; next = iterator.next())
      if (!res.write(next.value)) return void res.once('drain', more);
    res.end();
  };
  more();
}
