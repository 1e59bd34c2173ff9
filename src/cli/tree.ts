import { EXIT_FAILED, type Command } from './command.js';

// Placeholder until the tree command lands; replaced by its implementation.
export const command: Command = {
  spec: { name: 'tree', summary: '', usage: 'sitemapkit tree', help: '', options: {} },
  async run(_args, io) {
    io.stderr.write('sitemapkit tree: not available in this build\n');
    return EXIT_FAILED;
  },
};
