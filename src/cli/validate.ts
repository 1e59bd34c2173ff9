import { EXIT_FAILED, type Command } from './command.js';

// Placeholder until the validate command lands; replaced by its implementation.
export const command: Command = {
  spec: { name: 'validate', summary: '', usage: 'sitemapkit validate', help: '', options: {} },
  async run(_args, io) {
    io.stderr.write('sitemapkit validate: not available in this build\n');
    return EXIT_FAILED;
  },
};
