/**
 * One severity source: every severity sitemapkit emits for a code is one the catalog states
 * (its severity, or one of its `also`, with when). The whole conformance corpus, the validator's
 * fixtures and the shared rule cases go through every part that reports problems: the parser
 * (`parse`), the validator (`validate`, scope relaxed and strict), the generator's entry checks
 * (`generate`), the tree walk over HTTP (`tree`, and audit's discovery), and the built CLI's
 * `parse` and `validate --json`. Anyone tuning --fail-on from `sitemapkit rules` then guesses right.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RULES, severitiesOf } from '../../src/core/catalog.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { fetchSitemapTree } from '../../src/discover/index.js';
import { HttpClient } from '../../src/http/client.js';
import { prepareEntry } from '../../src/generate/index.js';
import { parseSitemap } from '../../src/parse/index.js';
import { validateSitemap } from '../../src/validate/index.js';
import { runCli } from '../helpers/cli.js';
import { loadManifest, rawBytesOf } from '../helpers/conformance.js';
import { startSite, type Route, type Site } from '../helpers/site-server.js';
import { CASES, NOW } from './cases.js';
import { SITE, urlsetOf } from './document.js';

const FIXTURES = fileURLToPath(new URL('../validate/fixtures/', import.meta.url));

/** Every document: the corpus's cases and the validator's fixtures, by a name that is also its path on the site. */
function documents(): { name: string; bytes: Buffer; file: string }[] {
  const corpus = loadManifest().map((c) => ({
    name: `corpus/${c.id}${c.gzip ? '.xml.gz' : ''}`,
    bytes: rawBytesOf(c),
    file: fileURLToPath(new URL(`../conformance/corpus/${c.file}`, import.meta.url)),
  }));
  const fixtures = readdirSync(FIXTURES, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      return { name: `fixtures/${file.slice(FIXTURES.length)}`, bytes: readFileSync(file), file };
    });
  return [...corpus, ...fixtures].sort((a, b) => (a.name < b.name ? -1 : 1));
}

const DOCUMENTS = documents();

/** Severities met that the catalog does not state, as "CODE severity (where)". */
const unstated = new Set<string>();
/** Every code and severity met, so that the test proves it saw the cases it is about. */
const met = new Set<string>();

function check(d: Pick<Diagnostic, 'code' | 'severity'>, where: string): void {
  met.add(`${d.code} ${d.severity}`);
  if (!severitiesOf(d.code).includes(d.severity))
    unstated.add(
      `${d.code} ${d.severity} (${where}; the catalog states ${severitiesOf(d.code).join('/') || 'nothing'})`,
    );
}

let site: Site;
before(async () => {
  const routes: Record<string, Route> = {};
  for (const doc of DOCUMENTS) routes[`/${doc.name}`] = { body: doc.bytes };
  site = await startSite(routes);
});
after(() => site.close());

test('the parser, the validator and the generator emit only severities the catalog states', async () => {
  for (const doc of DOCUMENTS) {
    const location = `${SITE}/${doc.name}`;
    const parsed = parseSitemap(new Uint8Array(doc.bytes), {
      baseUrl: location,
      onDiagnostic: (d) => check(d, 'parse'),
    });
    const entries = [];
    for await (const entry of parsed) entries.push(entry);
    for (const entry of entries) {
      const prepared = prepareEntry(entry, { baseUrl: `${SITE}/`, allowOtherHosts: false, now: NOW.getTime() });
      for (const p of prepared.ok ? prepared.problems : [prepared.problem])
        check({ code: p.code, severity: p.severity ?? RULES[p.code]!.severity }, 'generate');
    }
    for (const strictScope of [false, true]) {
      const result = await validateSitemap(
        { name: doc.name, input: new Uint8Array(doc.bytes) },
        { location, strictScope, now: NOW },
      );
      for (const d of result.diagnostics) check(d, `validate${strictScope ? ' --strict-scope' : ''}`);
    }
  }
  for (const c of CASES) {
    const raw = { loc: `${SITE}/page`, ...c.entry };
    const prepared = prepareEntry(raw, { baseUrl: `${SITE}/`, allowOtherHosts: false, now: NOW.getTime() });
    for (const p of prepared.ok ? prepared.problems : [prepared.problem])
      check({ code: p.code, severity: p.severity ?? RULES[p.code]!.severity }, 'generate');
    const result = await validateSitemap(
      { name: 'case.xml', input: { text: urlsetOf([raw]) } },
      { location: `${SITE}/sitemap.xml`, now: NOW },
    );
    for (const d of result.diagnostics) check(d, 'validate');
  }
  assert.deepEqual([...unstated], []);
  // The downgrades the catalog states were met: the test saw what it is about.
  for (const seen of ['URL-004 warning', 'URL-004 error', 'URL-003 warning', 'TXT-001 warning'])
    assert.ok(met.has(seen), `${seen} was met`);
});

test('the tree walk over HTTP emits only severities the catalog states', async () => {
  const http = new HttpClient({ retries: 0 });
  try {
    const tree = await fetchSitemapTree(
      DOCUMENTS.map((doc) => site.url(`/${doc.name}`)),
      // Children are not followed: the corpus's indexes list sitemaps on the web, and tests use no network.
      { http, maxDepth: 0 },
    );
    const visit = (node: (typeof tree.roots)[number]): void => {
      node.diagnostics.forEach((d) => check(d, `tree ${node.url}`));
      node.children.forEach(visit);
    };
    tree.roots.forEach(visit);
    tree.diagnostics.forEach((d) => check(d, 'tree'));
  } finally {
    await http.close();
  }
  assert.deepEqual([...unstated], []);
});

test('the CLI (parse, validate --json) prints only severities the catalog states', async () => {
  const files = DOCUMENTS.map((doc) => doc.file);
  const validate = await runCli(['validate', ...files, '--json', '--fail-on', 'never', '--max-per-rule', '0']);
  for (const line of validate.stdout.split('\n').filter(Boolean))
    for (const d of (JSON.parse(line) as { diagnostics: Diagnostic[] }).diagnostics) check(d, 'validate --json');
  const parse = await runCli(['parse', ...files, '--fail-on', 'never', '--max-per-rule', '0']);
  for (const m of parse.stderr.matchAll(/: (error|warning|info) ([A-Z]+-[0-9]+) /g))
    check({ code: m[2]!, severity: m[1] as Diagnostic['severity'] }, 'parse (CLI)');
  assert.ok(met.size > 50, `only ${met.size} code-severity pairs met`);
  assert.deepEqual([...unstated], []);
});
