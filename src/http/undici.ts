/**
 * undici, loaded at the first request instead of with the HTTP client: a command that reads only
 * files (validate, parse, generate, diff of local files) never loads it, about 0.09 s of CPU at
 * each start of the binary. Every client shares the one load.
 */
import type { Agent, request } from 'undici';

/** What the HTTP layer uses of undici. */
export interface Undici {
  Agent: typeof Agent;
  request: typeof request;
}

let loading: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  // The default export: undici is CommonJS, and the bundled command (scripts/bundle-cli.mjs) gives
  // a CommonJS module imported at run time no named exports.
  return (loading ??= import('undici').then(({ default: undici }) => ({
    Agent: undici.Agent,
    request: undici.request,
  })));
}
