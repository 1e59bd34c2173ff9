import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findScriptRedirect, isJavaScriptType, mayNavigate, parseRefresh } from '../../src/html/client-redirect.js';

describe('parseRefresh', () => {
  it('reads the URL in the usual syntaxes, with its delay', () => {
    assert.deepEqual(parseRefresh('0;url=x'), { delaySeconds: 0, href: 'x' });
    assert.deepEqual(parseRefresh("0; URL='x'"), { delaySeconds: 0, href: 'x' });
    assert.deepEqual(parseRefresh('5;url="x y"'), { delaySeconds: 5, href: 'x y' });
    assert.deepEqual(parseRefresh('  3 , Url = /next '), { delaySeconds: 3, href: '/next ' });
    assert.deepEqual(
      parseRefresh('0; https://example.com/'),
      { delaySeconds: 0, href: 'https://example.com/' },
      'no "url=": the rest is the URL',
    );
    assert.deepEqual(parseRefresh("1.5; url='a'b'"), { delaySeconds: 1, href: 'a' }, 'a quote ends the URL');
    assert.deepEqual(parseRefresh('0 url=x'), { delaySeconds: 0, href: 'x' });
  });

  it('takes a bare number, or one with nothing after the separator, as a reload', () => {
    assert.deepEqual(parseRefresh('30'), { delaySeconds: 30 });
    assert.deepEqual(parseRefresh(' 0; '), { delaySeconds: 0 });
  });

  it('rejects what is not a refresh', () => {
    for (const content of ['', 'url=x', 'soon; url=x', '5x;url=y'])
      assert.equal(parseRefresh(content), undefined, content);
  });
});

describe('findScriptRedirect', () => {
  it('finds assignments to location and location.href, and replace() / assign(), with a literal URL', () => {
    assert.deepEqual(findScriptRedirect('location.href = "/a";'), { href: '/a', how: 'location.href' });
    assert.deepEqual(findScriptRedirect("window.location = 'https://example.com/b'"), {
      href: 'https://example.com/b',
      how: 'window.location',
    });
    assert.deepEqual(findScriptRedirect('\n  window.location.replace("/c?x=1&y=\'2\'");\n'), {
      href: "/c?x=1&y='2'",
      how: 'window.location.replace()',
    });
    assert.deepEqual(findScriptRedirect("document.location.assign( '/d' )"), {
      href: '/d',
      how: 'document.location.assign()',
    });
    assert.deepEqual(findScriptRedirect("var a = 1; top.location.href='/e'"), { href: '/e', how: 'top.location.href' });
    assert.deepEqual(findScriptRedirect("setTimeout(() => location.replace('/f'), 2000);"), {
      href: '/f',
      how: 'location.replace()',
    });
  });

  it('ignores navigation inside blocks (functions, handlers), in comments, computed URLs and comparisons', () => {
    for (const script of [
      "button.addEventListener('click', function () { location.href = '/cart'; });",
      "if (old) { window.location.replace('/new'); }",
      "// location.href = '/commented';",
      "/* window.location = '/commented'; */",
      "location.href = '/search?q=' + term;",
      "location.href = base + '/x';",
      "if (location.href == '/x') track();",
      "iframe.contentWindow.location = '/frame';",
      "mylocation = '/x'; var s = '{'; location.reload();",
      'location.href = `/template/${id}`;',
    ]) {
      assert.equal(findScriptRedirect(script), undefined, script);
    }
  });

  it('counts braces in strings and comments for nothing', () => {
    assert.deepEqual(findScriptRedirect("var s = '{'; // {\n/* { */ location.href = '/after';"), {
      href: '/after',
      how: 'location.href',
    });
    assert.deepEqual(findScriptRedirect("function f() { return '}'; }\nlocation = '/g';"), {
      href: '/g',
      how: 'location',
    });
  });
});

describe('mayNavigate', () => {
  it('says "maybe" of every script in which findScriptRedirect finds a navigation', () => {
    for (const script of [
      'location.href = "/a";',
      "window.location = 'https://example.com/b'",
      '\n  window.location.replace("/c");\n',
      "document.location.assign( '/d' )",
      "top.location . href='/e'",
      "setTimeout(() => location.replace('/f'), 2000);",
      "function f() { return '}'; }\nlocation\n  =\n  '/g';",
    ]) {
      assert.notEqual(findScriptRedirect(script), undefined, script);
      assert.ok(mayNavigate(script), script);
    }
  });

  it('says no where a script only reads location, as the inline script of every rustdoc page does', () => {
    for (const script of [
      'if(window.location.protocol!=="file:")document.head.insertAdjacentHTML("beforeend","<link>")',
      "if (location.href == '/x') track();",
      'const here = window.location.pathname; location.reload();',
      'no script at all',
    ]) {
      assert.equal(findScriptRedirect(script), undefined, script);
      assert.ok(!mayNavigate(script), script);
    }
  });
});

describe('isJavaScriptType', () => {
  it('accepts what a browser runs and nothing else', () => {
    for (const type of [
      undefined,
      '',
      'text/javascript',
      'application/javascript',
      'module',
      ' Text/JavaScript ',
      'application/x-ecmascript',
    ]) {
      assert.ok(isJavaScriptType(type), String(type));
    }
    for (const type of ['application/ld+json', 'text/template', 'importmap']) assert.ok(!isJavaScriptType(type), type);
  });
});
