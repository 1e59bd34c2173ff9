/**
 * `sitemapkit/audit`: a live site checked against its sitemaps. The tree walked and validated
 * once, every listed URL fetched politely and judged (the check of one URL is a pure function of
 * its listing and its live answer), the audit a run on a queue so it resumes, and its report as
 * data, text and one self-contained HTML file.
 * @packageDocumentation
 */
export { runAudit, type AuditOptions } from '../run/audit-run.js';
export { checkListing, type CheckContext, type CheckedUrl, type Listing } from '../audit/check.js';
export { fetchLiveAnswer, type AnsweredPage, type LiveAnswer, type LiveFetchOptions } from '../audit/live-page.js';
export { FINDINGS, type Finding } from '../audit/findings.js';
export type { AuditRow } from '../audit/rows.js';
export type { AuditReport, CheckReport, SiteCheckReport } from '../audit/report.js';
export type { StampedLastModified } from '../audit/stamped-headers.js';
export { auditDatabasePaths } from '../store/site-database.js';
export { auditHtml } from '../report/audit-html.js';
export { formatAuditText } from '../report/audit-text.js';
