import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bytesStartLikeHtml, startsLikeHtml } from '../../src/core/html.js';

test('an HTML page is told by its start, after a byte-order mark and white space, in any case', () => {
  for (const page of ['<!DOCTYPE html><p>', '\uFEFF  <!doctype HTML>', '\n<html lang="en">', '<HTML>'])
    assert.equal(startsLikeHtml(page), true, JSON.stringify(page));
  for (const other of ['<?xml version="1.0"?><urlset>', '<urlset>', 'https://example.com/a', '', '<!-- <html> -->'])
    assert.equal(startsLikeHtml(other), false, JSON.stringify(other));
  assert.equal(bytesStartLikeHtml(new TextEncoder().encode('\uFEFF<!doctype html>')), true);
  assert.equal(bytesStartLikeHtml(new Uint8Array([0x1f, 0x8b, 0x08])), false, 'gzip bytes');
});
