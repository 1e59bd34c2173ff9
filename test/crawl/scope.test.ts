import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScope } from '../../src/crawl/scope.js';

describe('createScope', () => {
  it('keeps the start URL’s scheme, host and port', () => {
    const scope = createScope('https://example.com/start');
    assert.deepEqual(scope('https://example.com/anything?q=1'), { inScope: true });
    assert.deepEqual(scope('http://example.com/'), { inScope: false, why: 'not on https://example.com' });
    assert.equal(scope('https://www.example.com/').inScope, false);
    assert.equal(scope('https://example.com:8443/').inScope, false);
  });

  it('narrows by --include and --exclude globs on the path and query, or on whole URLs', () => {
    const scope = createScope('https://example.com/', {
      include: ['/blog/**', '/'],
      exclude: ['/blog/drafts/**', '**/*.pdf', 'https://example.com/blog/tag*'],
    });
    assert.equal(scope('https://example.com/').inScope, true);
    assert.equal(scope('https://example.com/blog/2024/post').inScope, true);
    assert.deepEqual(scope('https://example.com/shop/item'), {
      inScope: false,
      why: 'matches no --include (/blog/**, /)',
    });
    assert.deepEqual(scope('https://example.com/blog/drafts/x'), {
      inScope: false,
      why: 'matches --exclude /blog/drafts/**',
    });
    assert.equal(scope('https://example.com/blog/files/report.pdf').inScope, false);
    assert.equal(scope('https://example.com/blog/tags').inScope, false);
  });

  it('matches globs against the query too', () => {
    const scope = createScope('https://example.com/', { exclude: ['/search?*', '/calendar/**'] });
    assert.equal(scope('https://example.com/search?q=shoes').inScope, false);
    assert.equal(scope('https://example.com/search').inScope, true);
    assert.equal(scope('https://example.com/calendar/2024/01?view=week').inScope, false);
  });
});
