import { fileURLToPath } from 'node:url';

/** The conformance corpus, vendored byte for byte in the repository (see test/conformance/NOTICE.md). */
export const CONFORMANCE_DIR = fileURLToPath(new URL('../conformance/corpus/', import.meta.url));
/** The official sitemap schemas that came with the corpus (their sources: corpus/xsd/SOURCES.md). */
export const XSD_DIR = fileURLToPath(new URL('../conformance/corpus/xsd/', import.meta.url));
