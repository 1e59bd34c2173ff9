import { fileURLToPath } from 'node:url';

/** ../shared/conformance beside the project checkout (CI clones main next to shared/). */
export const CONFORMANCE_DIR = fileURLToPath(new URL('../../../shared/conformance/', import.meta.url));
export const XSD_DIR = fileURLToPath(new URL('../../../shared/conformance/xsd/', import.meta.url));
