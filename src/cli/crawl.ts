import { EXIT_FAILED, type Command } from './command.js';

// Placeholder until the crawl command lands; replaced by its implementation.
export const command: Command = {
  spec: { name: 'crawl', summary: '', usage: 'sitemapkit crawl', help: '', options: {} },
  async run(_args, io) {
    io.stderr.write('sitemapkit crawl: not available in this build\n');
    return EXIT_FAILED;
  },
};
