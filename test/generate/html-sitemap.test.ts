/**
 * The HTML sitemap page, read back with a real HTML parser (htmlparser2, as a browser builds the
 * tree): its outline follows the site's sections, link texts come from titles or URLs, it splits
 * into parts under an index, makes one version per language, escapes everything and runs no script.
 * The browser and axe-core check is in html-sitemap-browser.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import type { UrlEntry } from '../../src/core/entry.js';
import { writeSitemaps } from '../../src/generate/write-sitemaps.js';
import { HTML_SITEMAP_CSS, htmlSitemap, type HtmlSitemapItem } from '../../src/generate/html-sitemap.js';
import { PageTitles, writeHtmlSitemap, writtenEntries } from '../../src/site/html-sitemap-files.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-html-sitemap-'));
after(() => rm(scratch, { recursive: true, force: true }));

const page = (loc: string, title?: string, alternates?: UrlEntry['alternates']): HtmlSitemapItem => ({
  entry: { kind: 'url', loc, ...(alternates ? { alternates } : {}) },
  ...(title === undefined ? {} : { title }),
});

const SITE = [
  page('https://shop.example/', 'Tent Shop'),
  page('https://shop.example/about', 'About us | Tent Shop'),
  page('https://shop.example/contact.html'),
  page('https://shop.example/blog/', 'Blog | Tent Shop'),
  page('https://shop.example/blog/2024/pitching-in-wind', 'Pitching a tent in the wind | Tent Shop'),
  page('https://shop.example/blog/2024/first-night'),
  page('https://shop.example/blog/2025/new-poles', 'New poles | Tent Shop'),
  page('https://shop.example/docs/api', 'API | Tent Shop'),
  page('https://shop.example/docs/guide/getting_started.html', 'Getting started | Tent Shop'),
  page('https://shop.example/docs/guide/care/washing-a-tent'),
  page('https://shop.example/docs/guide/care/washing-a-tent'), // a duplicate: listed once
];

type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];
const isTag = (node: Element['children'][number]): node is Element => node.type === ElementType.Tag;

function elements(html: string, name: string): Element[] {
  return DomUtils.getElementsByTagName(name, parseDocument(html).children);
}

function only(html: string, name: string): Element {
  const found = elements(html, name);
  assert.equal(found.length, 1, `one <${name}>`);
  return found[0]!;
}

/**
 * The outline of <main> as a person reads it: headings as "## text", list items indented by
 * their nesting, a link as "text <href>", a folder (no page) as "text/".
 */
function outline(html: string): string[] {
  const lines: string[] = [];
  const walk = (node: Element, depth: number): void => {
    for (const child of node.children) {
      if (!isTag(child)) continue;
      if (child.name === 'h2' || child.name === 'h3') {
        lines.push(`${'#'.repeat(Number(child.name[1]))} ${DomUtils.textContent(child)}`);
      } else if (child.name === 'li') {
        const own = child.children.find((c): c is Element => isTag(c) && c.name !== 'ul');
        const text = own ? DomUtils.textContent(own) : '';
        const href = own?.name === 'a' ? ` <${own.attribs.href}>` : '/';
        lines.push(`${'  '.repeat(depth)}- ${text}${href}`);
        walk(child, depth + 1);
      } else walk(child, depth);
    }
  };
  walk(only(html, 'main'), 0);
  return lines;
}

function linksIn(html: string): { href: string; text: string }[] {
  return DomUtils.getElementsByTagName('a', [only(html, 'main')]).map((a) => ({
    href: a.attribs.href!,
    text: DomUtils.textContent(a),
  }));
}

describe('htmlSitemap', () => {
  it('lists the pages under headings that follow the path sections, titles as link texts', async () => {
    const made = await htmlSitemap(SITE);
    assert.equal(made.urls, 10, 'the duplicate once');
    assert.deepEqual(made.languages, []);
    assert.equal(made.documents.length, 1);
    const [document] = made.documents;
    assert.equal(document!.name, 'sitemap.html');
    assert.equal(document!.kind, 'page');
    assert.equal(document!.links, 10);
    assert.deepEqual(outline(document!.html), [
      '## Main pages',
      '- Home <https://shop.example/>',
      '- About us <https://shop.example/about>',
      '- Contact <https://shop.example/contact.html>',
      '## Blog',
      '### 2024',
      '- First night <https://shop.example/blog/2024/first-night>',
      '- Pitching a tent in the wind <https://shop.example/blog/2024/pitching-in-wind>',
      '### 2025',
      '- New poles <https://shop.example/blog/2025/new-poles>',
      '## Docs',
      '- API <https://shop.example/docs/api>',
      '### Guide',
      '- Care/',
      '  - Washing a tent <https://shop.example/docs/guide/care/washing-a-tent>',
      '- Getting started <https://shop.example/docs/guide/getting_started.html>',
    ]);
    const blog = elements(document!.html, 'h2').find((h) => DomUtils.textContent(h) === 'Blog')!;
    assert.equal(
      DomUtils.getElementsByTagName('a', [blog])[0]?.attribs.href,
      'https://shop.example/blog/',
      'a section heading links to its own page',
    );
    const html = document!.html;
    assert.equal(DomUtils.textContent(only(html, 'title')), 'Site map · Tent Shop', 'the site name from the titles');
    assert.equal(DomUtils.getElementsByTagName('a', [only(html, 'header')])[0]?.attribs.href, 'https://shop.example/');
  });

  it('is a page with landmarks, a skip link, a language, a built-in stylesheet, and no script', async () => {
    const { documents } = await htmlSitemap(SITE);
    const html = documents[0]!.html;
    assert.ok(html.startsWith('<!doctype html>\n<html lang="en">'));
    for (const name of ['header', 'main', 'footer', 'h1']) only(html, name);
    const skip = elements(html, 'a')[0]!;
    assert.equal(skip.attribs.href, '#content', 'the first link skips to the list');
    assert.equal(only(html, 'main').attribs.id, 'content');
    assert.equal(DomUtils.textContent(only(html, 'style')).trim(), HTML_SITEMAP_CSS.trim());
    assert.equal(elements(html, 'script').length, 0);
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no event handler attribute');
    for (const section of elements(html, 'section')) {
      const heading = DomUtils.getElementById(section.attribs['aria-labelledby']!, [section]);
      assert.ok(heading && /^h[23]$/.test(heading.name), 'each section is named by its heading');
    }
    const ids = DomUtils.findAll((element) => element.attribs.id !== undefined, parseDocument(html).children).map(
      (element) => element.attribs.id,
    );
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  });

  it('links a stylesheet of the user instead of its own, and speaks another language with its labels', async () => {
    const { documents } = await htmlSitemap(SITE, {
      stylesheet: '/assets/site-map.css?v="1"',
      lang: 'de',
      labels: { title: 'Seitenübersicht', skipLink: 'Zur Liste springen', mainPages: 'Hauptseiten', home: 'Start' },
      siteName: 'Zeltladen',
    });
    const html = documents[0]!.html;
    assert.equal(elements(html, 'style').length, 0);
    assert.equal(only(html, 'link').attribs.href, '/assets/site-map.css?v="1"');
    assert.match(html, /href="\/assets\/site-map\.css\?v=&quot;1&quot;"/);
    assert.ok(html.includes('<html lang="de">'));
    assert.equal(DomUtils.textContent(only(html, 'h1')), 'Seitenübersicht');
    assert.equal(DomUtils.textContent(only(html, 'title')), 'Seitenübersicht · Zeltladen');
    assert.deepEqual(outline(html).slice(0, 2), ['## Hauptseiten', '- Start <https://shop.example/>']);
  });

  it('escapes titles and URLs: what a page says cannot become markup', async () => {
    const hostile = '</a><script>alert(1)</script><img src=x onerror=alert(2)> & "quotes" \'too\'';
    const { documents } = await htmlSitemap([
      page('https://shop.example/a?q="><script>alert(3)</script>&x=1', hostile),
      page('https://shop.example/b', 'Plain'),
      page('javascript:alert(4)', 'a script URL'),
      page('not a url'),
    ]);
    const html = documents[0]!.html;
    assert.equal(elements(html, 'script').length, 0);
    assert.equal(elements(html, 'img').length, 0);
    assert.doesNotMatch(html, /javascript:/);
    const links = linksIn(html);
    assert.deepEqual(
      links.map((link) => link.text),
      [hostile, 'Plain'],
      'the title read back as the same text',
    );
    assert.equal(links[0]!.href, new URL('https://shop.example/a?q="><script>alert(3)</script>&x=1').href);
  });

  it('counts the entries whose loc is no http(s) URL, and lists the rest', async () => {
    const made = await htmlSitemap([
      page('javascript:alert(1)'),
      page('ftp://shop.example/x'),
      page('https://shop.example/'),
    ]);
    assert.equal(made.skipped, 2);
    assert.equal(made.urls, 1);
  });

  it('drops a site name from the start of titles too, and a title shared by many pages for the URL', async () => {
    const { documents } = await htmlSitemap([
      page('https://shop.example/tents', 'Tent Shop — Tents'),
      page('https://shop.example/poles', 'Tent Shop — Poles'),
      page('https://shop.example/pegs', 'Tent Shop — Pegs'),
      page('https://shop.example/mats', 'Untitled'),
      page('https://shop.example/ropes', 'Untitled'),
      page('https://shop.example/bags', 'Untitled'),
    ]);
    assert.deepEqual(
      linksIn(documents[0]!.html).map((link) => link.text),
      ['Bags', 'Mats', 'Pegs', 'Poles', 'Ropes', 'Tents'],
    );
  });

  it('sorts as people do: numbers by value, case and accents aside', async () => {
    const { documents } = await htmlSitemap(
      ['part-10', 'part-9', 'Zebra', 'apple', 'Éclair', 'banana'].map((name) => page(`https://shop.example/${name}`)),
    );
    assert.deepEqual(
      linksIn(documents[0]!.html).map((link) => link.text),
      ['Apple', 'Banana', 'Éclair', 'Part 9', 'Part 10', 'Zebra'],
    );
  });

  it('groups by host first when the entries are on several hosts', async () => {
    const { documents } = await htmlSitemap([
      page('https://shop.example/a'),
      page('https://blog.example/b'),
      page('https://blog.example/c'),
    ]);
    assert.deepEqual(outline(documents[0]!.html), [
      '## blog.example',
      '- B <https://blog.example/b>',
      '- C <https://blog.example/c>',
      '## shop.example',
      '- A <https://shop.example/a>',
    ]);
  });

  it('past pageSize links, splits into parts under an index; each part reads alone', async () => {
    const entries: HtmlSitemapItem[] = [page('https://shop.example/', 'Home')];
    for (let n = 1; n <= 25; n++) entries.push(page(`https://shop.example/guides/tents/guide-${n}`));
    for (let n = 1; n <= 6; n++) entries.push(page(`https://shop.example/news/item-${n}`));
    const made = await htmlSitemap(entries, { pageSize: 10 });
    const names = made.documents.map((document) => `${document.name} ${document.kind} ${document.links}`);
    assert.deepEqual(names, [
      'sitemap.html index 0',
      'sitemap-1.html part 10',
      'sitemap-2.html part 10',
      'sitemap-3.html part 6',
      'sitemap-4.html part 6',
    ]);
    const parts = made.documents.slice(1);
    const listed = parts.flatMap((part) => linksIn(part.html).map((link) => link.href));
    assert.deepEqual(listed.sort(), entries.map((entry) => entry.entry.loc).sort(), 'every URL once, in one part');
    // The index names each section, where it begins, and where it goes on.
    const index = made.documents[0]!.html;
    assert.deepEqual(
      linksIn(index).map((link) => `${link.text} ${link.href}`),
      [
        'Main pages sitemap-1.html#s-main-pages',
        'Guides sitemap-1.html#s-guides',
        '2 sitemap-2.html',
        '3 sitemap-3.html',
        'News sitemap-4.html#s-news',
      ],
    );
    assert.match(DomUtils.textContent(only(index, 'main')), /Guides 25 pages · continued in part 2, 3/);
    // A section that does not fit in a part at least half full begins the next one.
    assert.deepEqual(outline(parts[3]!.html)[0], '## News');
    assert.deepEqual(outline(parts[0]!.html).slice(0, 4), [
      '## Main pages',
      '- Home <https://shop.example/>',
      '## Guides',
      '### Tents',
    ]);
    // A part that continues a section says so, under the same headings.
    assert.deepEqual(outline(parts[1]!.html).slice(0, 4), [
      '## Guides (continued)',
      '### Tents (continued)',
      '- Guide 10 <https://shop.example/guides/tents/guide-10>',
      '- Guide 11 <https://shop.example/guides/tents/guide-11>',
    ]);
    assert.equal(DomUtils.textContent(only(parts[1]!.html, 'title')), 'Site map · shop.example · Part 2 of 4');
    // Every document can reach every other.
    for (const document of made.documents) {
      const pager = DomUtils.findOne(
        (e) => e.name === 'nav' && e.attribs.class === 'parts',
        parseDocument(document.html).children,
      )!;
      const targets = DomUtils.getElementsByTagName('a', [pager]);
      assert.deepEqual(
        targets.map((a) => a.attribs.href),
        made.documents.map((d) => d.name),
      );
      assert.deepEqual(
        targets.filter((a) => a.attribs['aria-current'] === 'page').map((a) => a.attribs.href),
        [document.name],
      );
    }
  });

  it('a section deeper than a part goes on with the folders above its first item', async () => {
    const entries = [1, 2, 3, 4, 5, 6].map((n) => page(`https://shop.example/docs/v1/api/deep/page-${n}`));
    const { documents } = await htmlSitemap(entries, { pageSize: 4 });
    assert.deepEqual(outline(documents[2]!.html), [
      '## Docs (continued)',
      '### V1 (continued)',
      '- Api/',
      '  - Deep/',
      '    - Page 5 <https://shop.example/docs/v1/api/deep/page-5>',
      '    - Page 6 <https://shop.example/docs/v1/api/deep/page-6>',
    ]);
  });

  it('makes one version per language where alternates say which page is in which', async () => {
    const cluster = (path: string, title: Record<string, string>): HtmlSitemapItem[] => {
      const alternates = [
        { hreflang: 'en', href: `https://shop.example/en/${path}` },
        { hreflang: 'de', href: `https://shop.example/de/${path}` },
        { hreflang: 'x-default', href: `https://shop.example/en/${path}` },
      ];
      return ['en', 'de'].map((lang) => page(`https://shop.example/${lang}/${path}`, title[lang], alternates));
    };
    const made = await htmlSitemap([
      ...cluster('', { en: 'Tent Shop', de: 'Zeltladen' }),
      ...cluster('tents', { en: 'Tents', de: 'Zelte' }),
      ...cluster('poles', { en: 'Poles', de: 'Stangen' }),
      page('https://shop.example/fr/', 'Boutique', [{ hreflang: 'fr', href: 'https://shop.example/fr/' }]),
      page('https://shop.example/imprint', 'Imprint'),
    ]);
    assert.deepEqual(made.languages, ['en', 'de', 'fr']);
    assert.deepEqual(
      made.documents.map((document) => `${document.name} ${document.language}`),
      ['sitemap.html en', 'sitemap.de.html de', 'sitemap.fr.html fr'],
    );
    const [en, de, fr] = made.documents.map((document) => document.html);
    assert.deepEqual(
      outline(en!),
      [
        '## Main pages',
        '- Tent Shop <https://shop.example/en/>',
        '- Imprint <https://shop.example/imprint>',
        '- Poles <https://shop.example/en/poles>',
        '- Tents <https://shop.example/en/tents>',
      ],
      'English, with /en/ as its root, and the page that names no language',
    );
    assert.deepEqual(
      linksIn(de!).map((link) => link.text),
      ['Zeltladen', 'Stangen', 'Zelte'],
    );
    assert.deepEqual(
      linksIn(fr!).map((link) => link.text),
      ['Boutique'],
    );
    assert.equal(only(de!, 'main').attribs.lang, 'de', 'the list in its language, the words around it in English');
    assert.ok(de!.includes('<html lang="en">'));
    assert.equal(only(en!, 'main').attribs.lang, undefined);
    for (const html of [en!, de!, fr!]) {
      const nav = DomUtils.findOne(
        (e) => e.name === 'nav' && e.attribs.class === 'languages',
        parseDocument(html).children,
      )!;
      assert.deepEqual(
        DomUtils.getElementsByTagName('a', [nav]).map(
          (a) => `${a.attribs.href} ${a.attribs.hreflang} ${a.attribs.lang} ${DomUtils.textContent(a)}`,
        ),
        ['sitemap.html en en English', 'sitemap.de.html de de Deutsch', 'sitemap.fr.html fr fr Français'],
      );
      assert.deepEqual(
        elements(html, 'link')
          .filter((link) => link.attribs.rel === 'alternate')
          .map((link) => `${link.attribs.hreflang} ${link.attribs.href}`),
        ['en sitemap.html', 'de sitemap.de.html', 'fr sitemap.fr.html'],
      );
    }
    const german = await htmlSitemap(
      [...cluster('', { en: 'Home', de: 'Start' }), ...cluster('tents', { en: 'Tents', de: 'Zelte' })],
      { defaultLanguage: 'de', fileName: 'plan.htm' },
    );
    assert.deepEqual(
      german.documents.map((document) => `${document.name} ${document.language}`),
      ['plan.htm de', 'plan.en.htm en'],
    );
  });

  it('refuses more than maxUrls entries rather than hold them', async () => {
    const entries = [1, 2, 3].map((n) => page(`https://shop.example/${n}`));
    await assert.rejects(htmlSitemap(entries, { maxUrls: 2 }), /at most 2 URLs/);
    assert.equal((await htmlSitemap(entries, { maxUrls: 3 })).urls, 3);
  });
});

describe('writeHtmlSitemap', () => {
  it('writes the entry page and its parts beside it, and leaves no temporary file', async () => {
    const dir = join(scratch, 'written', 'deep');
    const entries = [1, 2, 3].map((n) => ({ kind: 'url' as const, loc: `https://shop.example/p/${n}` }));
    const result = await writeHtmlSitemap(entries, join(dir, 'map.html'), { pageSize: 2 });
    assert.deepEqual(
      result.files,
      ['map.html', 'map-1.html', 'map-2.html'].map((name) => join(dir, name)),
    );
    assert.deepEqual((await readdir(dir)).sort(), ['map-1.html', 'map-2.html', 'map.html']);
    assert.equal(result.urls, 3);
    assert.match(await readFile(join(dir, 'map-2.html'), 'utf8'), /https:\/\/shop\.example\/p\/3/);
  });

  it('removes the parts and language versions an earlier run wrote and this one has not, and only those', async () => {
    const dir = join(scratch, 'shrinking');
    const file = join(dir, 'map.html');
    const alternates = [
      { hreflang: 'en', href: 'https://shop.example/en/' },
      { hreflang: 'fr', href: 'https://shop.example/fr/' },
    ];
    const bilingual = [
      ...[1, 2, 3, 4, 5].map((n) => ({ kind: 'url' as const, loc: `https://shop.example/en/${n}` })),
      { kind: 'url' as const, loc: 'https://shop.example/en/', alternates },
      { kind: 'url' as const, loc: 'https://shop.example/fr/', alternates },
    ];
    const first = await writeHtmlSitemap(bilingual, file, { pageSize: 2 });
    assert.deepEqual(first.removed, []);
    const earlier = (await readdir(dir)).sort();
    assert.deepEqual(earlier, ['map-1.html', 'map-2.html', 'map-3.html', 'map.fr.html', 'map.html']);
    // Files of the site's own with names like the site map's: never touched.
    await writeFile(join(dir, 'map-9.html'), '<!doctype html><title>our own page</title>');
    await writeFile(join(dir, 'map.old.html'), '<!doctype html><title>kept</title>');
    const second = await writeHtmlSitemap(bilingual.slice(0, 5), file, { pageSize: 10 });
    assert.deepEqual(second.removed.map((path) => path.slice(dir.length + 1)).sort(), [
      'map-1.html',
      'map-2.html',
      'map-3.html',
      'map.fr.html',
    ]);
    assert.deepEqual((await readdir(dir)).sort(), ['map-9.html', 'map.html', 'map.old.html']);
  });

  it('a refused run leaves the files of the last one as they were', async () => {
    const file = join(scratch, 'kept.html');
    await writeFile(file, 'the last run');
    const entries = [1, 2].map((n) => ({ kind: 'url' as const, loc: `https://shop.example/${n}` }));
    await assert.rejects(writeHtmlSitemap(entries, file, { maxUrls: 1 }), RangeError);
    assert.equal(await readFile(file, 'utf8'), 'the last run');
  });

  it('lists what the written sitemaps list, with the titles the inputs carried', async () => {
    const outDir = join(scratch, 'published');
    const titles = new PageTitles();
    const inputs = [
      { entry: { kind: 'url' as const, loc: 'https://shop.example/zelte/übersicht' }, title: 'Übersicht' },
      { entry: { kind: 'url' as const, loc: 'https://shop.example/b' }, title: 'Bee' },
      { entry: { kind: 'url' as const, loc: '/c' } }, // relative: resolved by the writer, no title
      { entry: { kind: 'url' as const, loc: 'https://other.example/d' }, title: 'Another host' }, // refused by the writer
    ];
    inputs.forEach(titles.note);
    const summary = await writeSitemaps(inputs, { outDir, baseUrl: 'https://shop.example/', maxUrls: 2 });
    assert.equal(summary.files.length, 2);
    const listed = [];
    for await (const item of writtenEntries(outDir, summary.files, titles))
      listed.push(`${item.entry.loc} ${item.title}`);
    assert.deepEqual(listed, [
      'https://shop.example/zelte/%C3%BCbersicht Übersicht',
      'https://shop.example/b Bee',
      'https://shop.example/c undefined',
    ]);
  });
});
