/**
 * Validates XML against the official sitemap schemas in ../shared/conformance/xsd with a real
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
    return Promise.all(names.map(async (fileName) => ({ fileName, contents: await readFile(join(XSD_DIR, fileName), 'utf8') })));
  })();
  return schemaFiles;
}

export async function validateAgainstXsd(xml: string, schema: SchemaName): Promise<XsdResult> {
  const files = await loadSchemaFiles();
  const entry = files.find((file) => file.fileName === ENTRY_SCHEMA[schema]);
  if (!entry) throw new Error(`${ENTRY_SCHEMA[schema]} is missing from ${XSD_DIR}`);
  const result = await xmllint.validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [entry],
    preload: files.filter((file) => file !== entry),
    // Generated shards can reach tens of megabytes; give libxml2 room for them.
    maxMemoryPages: xmllint.memoryPages.GiB,
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}
