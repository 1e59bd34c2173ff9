import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readUrl } from '../../src/core/rules/url.js';
import { normaliseUrl } from '../../src/core/url.js';
import { splitUserinfo, withoutUserinfo } from '../../src/core/url-userinfo.js';

test('a user name and password are found before the host, whatever they hold', () => {
  assert.deepEqual(splitUserinfo('http://admin:hunter2@example.com/a?b=c@d'), {
    url: 'http://example.com/a?b=c@d',
    host: 'example.com',
  });
  assert.deepEqual(splitUserinfo('https://user@example.com:8443/'), {
    url: 'https://example.com:8443/',
    host: 'example.com:8443',
  });
  assert.equal(withoutUserinfo('https://a:p@ss@example.com'), 'https://example.com');
  assert.equal(splitUserinfo('https://example.com/@user'), undefined, 'an "@" in the path is no userinfo');
  assert.equal(splitUserinfo('https://example.com/?to=a@b.c'), undefined);
  assert.equal(splitUserinfo('mailto:a@b.c'), undefined);
});

test('normalising removes them and names the host', () => {
  assert.deepEqual(normaliseUrl('http://admin:hunter2@Example.com/a'), {
    ok: true,
    value: 'http://example.com/a',
    userinfoRemoved: 'example.com',
  });
  assert.deepEqual(normaliseUrl('http://example.com/a'), { ok: true, value: 'http://example.com/a' });
});

test('the URL rule keeps no password, as written or normalised, and reports URL-024 naming the host only', () => {
  for (const mode of ['as-written', 'normalise'] as const) {
    const read = readUrl('https://admin:hunter2@example.com/a', { mode, field: 'page' });
    assert.equal(read.value, 'https://example.com/a', mode);
    assert.deepEqual(
      read.problems.map((found) => found.code),
      ['URL-024'],
      mode,
    );
    assert.match(read.problems[0]!.message, /for example\.com carries a user name or password/);
    assert.doesNotMatch(JSON.stringify(read), /hunter2|admin/, mode);
  }
});
