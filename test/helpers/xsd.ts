/**
 * Validates XML against the official sitemap schemas in test/conformance/corpus/xsd with a real
 * schema validator (libxml2's xmllint, compiled to WebAssembly by xmllint-wasm).
 *
 * - 'sitemap': sitemap.xsd alone (a urlset with no extensions)
 * - 'extensions': the corpus wrapper that imports sitemap.xsd and every extension schema
 *   (image, video, news, mobile, PageMap, xhtml:link), for urlsets that use extensions
 * - 'siteindex': siteindex.xsd, for sitemap index files (it shares the core namespace with
 *   sitemap.xsd, so it is always checked on its own)
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import xmllint from 'xmllint-wasm';
import { XSD_DIR } from './paths.js';

export type SchemaName = 'sitemap' | 'siteindex' | 'extensions';

export interface XsdResult {
  valid: boolean;
  /** xmllint's messages, with line numbers, e.g. "doc.xml:3: element lastmod: ... not valid". */
  errors: string[];
}

const ENTRY_SCHEMA: Record<SchemaName, string> = {
  sitemap: 'sitemap.xsd',
  siteindex: 'siteindex.xsd',
  extensions: 'sitemap-with-extensions.xsd',
};

let schemaFiles: Promise<{ fileName: string; contents: string }[]> | undefined;

/** Every .xsd of the folder, read once: imports are resolved inside xmllint's in-memory file system. */
function loadSchemaFiles(): Promise<{ fileName: string; contents: string }[]> {
  schemaFiles ??= (async () => {
    const names = (await readdir(XSD_DIR)).filter((name) => name.endsWith('.xsd'));
    return Promise.all(
      names.map(async (fileName) => ({ fileName, contents: await readFile(join(XSD_DIR, fileName), 'utf8') })),
    );
  })();
  return schemaFiles;
}

export async function validateAgainstXsd(xml: string, schema: SchemaName): Promise<XsdResult> {
  const results = await validateManyAgainstXsd([{ fileName: 'document.xml', contents: xml }], schema);
  return results.get('document.xml')!;
}

/**
 * Validates several documents in one xmllint run (starting xmllint and compiling the schemas
 * dominates the cost of a small document). Results are by file name; names must be unique.
 */
export async function validateManyAgainstXsd(
  documents: { fileName: string; contents: string }[],
  schema: SchemaName,
): Promise<Map<string, XsdResult>> {
  const files = await loadSchemaFiles();
  const entry = files.find((file) => file.fileName === ENTRY_SCHEMA[schema]);
  if (!entry) throw new Error(`${ENTRY_SCHEMA[schema]} is missing from ${XSD_DIR}`);
  const result = await xmllint.validateXML({
    xml: documents,
    schema: [entry],
    preload: files.filter((file) => file !== entry),
    // Generated shards can reach tens of megabytes; give libxml2 room for them.
    maxMemoryPages: xmllint.memoryPages.GiB,
  });
  const byFile = new Map(
    documents.map((document): [string, XsdResult] => [document.fileName, { valid: true, errors: [] }]),
  );
  // Unlocated lines are "<file> fails to validate" summaries, or the source excerpt that
  // continues the previous parser error.
  let previous: XsdResult | undefined;
  for (const error of result.errors) {
    const summary = error.loc
      ? undefined
      : / fails to validate$/.test(error.rawMessage)
        ? byFile.get(error.rawMessage.replace(/ fails to validate$/, ''))
        : undefined;
    const target = error.loc ? byFile.get(error.loc.fileName) : (summary ?? previous);
    if (!target) continue;
    // Warnings (an external entity not loaded) do not make a document invalid.
    if (summary || (error.loc && !/: warning: /.test(error.rawMessage))) target.valid = false;
    if (!summary) target.errors.push(error.rawMessage);
    previous = target;
  }
  return byFile;
}
