/**
 * V8 settings for the `sitemapkit` process, applied before any other module loads. Only the
 * binary sets them: a library must not change the engine of the process that imports it.
 */
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with llhttp, a WebAssembly module. V8 starts it on its baseline compiler
// and, after a little use (a robots.txt and a sitemap are enough), recompiles llhttp's one very
// large parse function with its optimizing compiler: about 150 ms of CPU and 30 MB, which the
// process then waits for at exit. A short command never earns that back, and measured over
// 20,000 requests the baseline code parses as fast (the parse is a small part of a request's
// cost). So the optimizing compile waits for a budget that only a long run reaches.
const WASM_TIERING_BUDGET = 1_000_000_000;

setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
