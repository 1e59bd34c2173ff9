import { EXIT_FAILED, type Command } from './command.js';

// Placeholder until the parse command lands; replaced by its implementation.
export const command: Command = {
  spec: { name: 'parse', summary: '', usage: 'sitemapkit parse', help: '', options: {} },
  async run(_args, io) {
    io.stderr.write('sitemapkit parse: not available in this build\n');
    return EXIT_FAILED;
  },
};
