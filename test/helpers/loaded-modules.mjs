// Loaded into a CLI run (node --import test/helpers/loaded-modules.mjs): every module the process
// loads through Node's module loader (the command's chunks, node_modules) is written, one URL a
// line, to the file SITEMAPKIT_TEST_LOADED names. For tests of what a command loads at all.
import { register } from 'node:module';

register('./loaded-modules-hooks.mjs', import.meta.url, { data: { file: process.env.SITEMAPKIT_TEST_LOADED } });
