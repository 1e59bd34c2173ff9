/**
 * The shared suite's host for Deno and Bun: runs every case against `sitemapkit/web` as the
 * runtime resolves it (the package's exports, its `deno` or `bun` condition) and prints the
 * results as one JSON line for runtimes.test.ts to read.
 */
import * as web from 'sitemapkit/web';
import { runCases } from './suite.js';

console.log(JSON.stringify(await runCases(web)));
