/** A page that says it is a "not found" page (issue 23 §10), and pages about such errors that do not. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { saysNotFound } from '../../src/html/not-found-words.js';
import { readPageHead } from '../../src/html/page-head.js';

describe('not-found pages', () => {
  it('reads the title of the head and the first h1 (else the first h2), white space collapsed', async () => {
    const read = async (page: string | Buffer) => {
      const { title, heading } = await readPageHead([page], 'https://example.com/', { wholeDocument: true });
      return { ...(title === undefined ? {} : { title }), ...(heading === undefined ? {} : { heading }) };
    };
    const page =
      '<html><head><title>\n  Oops ·  Docs </title></head><body><h2>Menu</h2><h1>Page <em>not</em> found</h1><h1>x</h1>';
    assert.deepEqual(await read(page), { title: 'Oops · Docs', heading: 'Page not found' });
    assert.deepEqual(await read(Buffer.from('<h2>Only</h2><h2>Second</h2>')), { heading: 'Only' });
    assert.deepEqual(await read('<body><h1> </h1><h1>Second</h1>'), { heading: 'Second' });
    assert.deepEqual(await read('<body><svg><title>Logo</title></svg><p>nothing</p>'), {});
  });

  it('knows the words error pages use, in their title and heading alike', () => {
    for (const [title, heading] of [
      ['Page not found · Docs', '404: this page does not exist'],
      ['404 | Example', 'Not Found'],
      ['Error 404 - Example', "Sorry, this page can't be found."],
      ['Seite nicht gefunden', '404'],
      ['Page introuvable – Exemple', 'Page introuvable'],
    ] as const)
      assert.ok(saysNotFound({ title, heading }), `${title} / ${heading}`);
    assert.equal(saysNotFound({ title: '404 Not Found' }), 'its title "404 Not Found" says it is a "not found" page');
  });

  it('leaves pages about such errors, and pages where only one of the two says it', () => {
    for (const [title, heading] of [
      ['Fixing HTTP 404 errors · Docs', 'Fixing HTTP 404 errors'],
      ['Module not found | Webpack', 'Module not found errors'],
      ['Page not found · Docs', 'Our products'],
      ['Home', 'Page not found'],
    ] as const)
      assert.equal(saysNotFound({ title, heading }), undefined, `${title} / ${heading}`);
    assert.equal(saysNotFound({}), undefined);
  });
});
