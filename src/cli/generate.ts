import { EXIT_FAILED, type Command } from './command.js';

// Placeholder until the generate command lands; replaced by its implementation.
export const command: Command = {
  spec: { name: 'generate', summary: '', usage: 'sitemapkit generate', help: '', options: {} },
  async run(_args, io) {
    io.stderr.write('sitemapkit generate: not available in this build\n');
    return EXIT_FAILED;
  },
};
