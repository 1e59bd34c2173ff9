export * from './entry.js';
export * from './limits.js';
export * from './namespaces.js';
export * from './datetime.js';
export * from './url.js';
export * from './xml.js';
export * from './diagnostics.js';
export * from './detach.js';
