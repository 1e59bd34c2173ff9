/** The audit: a live site checked against its sitemaps (see audit.ts for its parts). */
export { runAudit, type AuditOptions, type AuditPhase } from './audit.js';
export { checkListing, type CheckContext, type CheckedUrl, type Listing } from './check.js';
export { fetchLiveAnswer, type AnsweredPage, type LiveAnswer, type LiveFetchOptions } from './live-page.js';
export { checkListedUrls, type CheckOptions, type CheckProgress } from './checker.js';
export { discoverListings, type Discovery, type SitemapSummary, type SiteProblem } from './discovery.js';
export { FINDINGS, FINDING_NAMES, type Finding } from './findings.js';
export { auditRows, type AuditRow } from './rows.js';
export { type AuditReport, type CheckReport, type SiteCheckReport } from './report.js';
