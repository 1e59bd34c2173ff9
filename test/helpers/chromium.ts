/**
 * Headless Chromium for the tests of pages people read (the audit report, the HTML sitemap):
 * Debian's `chromium`, found on the PATH, driven by playwright-core. Without it the tests say so
 * and are skipped (`CHROMIUM_SKIP` is the reason, for `describe(…, { skip })`).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_DIR } from './paths.js';

/** Where browser tests keep their screenshots (gitignored). */
export const ARTIFACTS_DIR = join(REPO_DIR, 'test/artifacts/');

/** The first of `names` found as an executable on the PATH. */
function findOnPath(names: readonly string[]): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = join(folder, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export const CHROMIUM = findOnPath(['chromium', 'chromium-browser']);

/** Why browser tests are skipped, or false when Chromium is there. */
export const CHROMIUM_SKIP: string | false = CHROMIUM
  ? false
  : 'Chromium is not on the PATH: the browser tests are skipped (install Debian\'s "chromium"; CI does)';

/** A headless Chromium, offline (no background requests of its own). */
export function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error(CHROMIUM_SKIP || 'no Chromium');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
