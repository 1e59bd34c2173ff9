/**
 * The audit as one self-contained HTML file, on the Lighthouse model: everything drawn here
 * (summary by severity, SVG charts, one table per finding with its first examples), so it reads
 * and prints without JavaScript; the report's data embedded as JSON (escaped so that no value can
 * end the script element), which the page's one inline script uses for the filter boxes. A
 * Content-Security-Policy forbids every request: nothing leaves the file, nothing comes in.
 */
import { RULES } from '../core/catalog.js';
import type { Severity } from '../core/diagnostics.js';
import { escapeXml as escapeHtml } from '../core/xml.js';
import {
  robotsNamesNoOwnSitemap,
  stampedLastModifiedNotes,
  type AuditReport,
  type CheckReport,
  type SiteCheckReport,
} from '../audit/report.js';
import { formatNumber } from './format.js';
import { horizontalBars, monthColumns, ring, type Bar } from './svg-charts.js';

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The report as one self-contained HTML file. */
export function auditHtml(report: AuditReport): string {
  const title = `Sitemap audit of ${report.site}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} · ${report.now.slice(0, 10)}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="meta">at <time datetime="${escapeHtml(report.now)}">${escapeHtml(report.now)}</time>${report.complete ? '' : ' · <strong class="error">stopped before the end: the counts cover what was checked</strong>'}</p>
${report.sample ? `<p class="meta" id="sample">Sample: ${formatNumber(report.sample.size)} of ${formatNumber(report.sample.of)} listed URLs checked, ${escapeHtml(report.sample.method)}.</p>` : ''}
</header>
<main>
${summarySection(report)}
${chartsSection(report)}
${findingsSection(report)}
${siteSection(report)}
</main>
<footer><p>Made by sitemapkit audit. The full rows (every URL, every finding) are in the file written with --rows; each table here shows the first ${formatNumber(100)}.</p></footer>
<script type="application/json" id="audit-data">${embeddedJson(report)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * JSON for a `<script>` element: `<`, `>` and `&` escaped as \\u003c …, so `</script>` or
 * `<!--` in a URL cannot end the element, and U+2028/U+2029, which old parsers took for line ends.
 */
export function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function summarySection(report: AuditReport): string {
  const { summary, urls, sitemaps } = report;
  const card = (key: string, value: number, label: string, tone = '') =>
    `<div class="card ${tone}"><span class="n" data-count="${key}">${formatNumber(value)}</span> ${label}</div>`;
  const share = urls.checked > 0 ? ` (${((urls.indexable * 100) / urls.checked).toFixed(1)}%)` : '';
  return `<section id="summary" aria-labelledby="summary-title">
<h2 id="summary-title">Summary</h2>
<div class="cards">
${card('errors', summary.errors, 'errors', summary.errors > 0 ? 'error' : 'ok')}
${card('warnings', summary.warnings, 'warnings', summary.warnings > 0 ? 'warning' : 'ok')}
${card('infos', summary.infos, 'infos', 'info')}
</div>
<div class="cards">
${card('sitemaps', sitemaps.count, `sitemaps (${formatNumber(sitemaps.read)} read, ${formatNumber(sitemaps.failed)} failed)`)}
${card('listed', urls.listed, 'URLs listed')}
${card('checked', urls.checked, 'URLs checked')}
${card('indexable', urls.indexable, `indexable${share}`)}
${urls.notListed === undefined ? '' : card('notListed', urls.notListed, 'indexable pages not listed')}
</div>
${stampedLastModifiedNotes(report)
  .map((note) => `<p class="meta">${escapeHtml(note)}.</p>`)
  .join('\n')}
${report.checks.length + report.siteChecks.length === 0 ? '<p class="ok">No findings: every URL checked is listed as it is served.</p>' : ''}
</section>`;
}

const STATUS_COLORS: [RegExp, string][] = [
  [/^2/, '#27ae60'],
  [/^3/, '#f39c12'],
  [/^4/, '#e74c3c'],
  [/^5/, '#8e1b10'],
  [/^blocked$/, '#7f8c8d'],
];

function chartsSection(report: AuditReport): string {
  const { charts } = report;
  const statuses: Bar[] = charts.statuses.map(({ label, count }) => ({
    label: /^\d+$/.test(label) ? `HTTP ${label}` : label,
    count,
    color: STATUS_COLORS.find(([pattern]) => pattern.test(label))?.[1] ?? '#34495e',
  }));
  const indexable: Bar[] = [
    { label: 'indexable', count: charts.indexable.indexable, color: '#27ae60' },
    { label: 'not indexable', count: charts.indexable.notIndexable, color: '#e74c3c' },
  ];
  const noLastmod =
    charts.noLastmod > 0 ? `<p class="note">${formatNumber(charts.noLastmod)} URLs checked have no lastmod.</p>` : '';
  return `<section id="charts" aria-labelledby="charts-title">
<h2 id="charts-title">At a glance</h2>
<div class="charts">
<figure><figcaption>Answers of the URLs checked</figcaption>${horizontalBars('Answers by HTTP status', statuses)}</figure>
<figure><figcaption>Indexable or not</figcaption>${ring('Indexable URLs among those checked', indexable)}</figure>
<figure class="wide"><figcaption>lastmod by month, the audit's date marked</figcaption>${monthColumns('URLs by the month of their lastmod', charts.lastmodByMonth, report.now.slice(0, 7))}${noLastmod}</figure>
</div>
</section>`;
}

function findingsSection(report: AuditReport): string {
  if (report.checks.length === 0) return '';
  const overview = report.checks
    .map(
      (check) =>
        `<tr><td>${badge(check.severity)}</td><td><a href="#finding-${check.finding}">${check.finding}</a></td><td>${check.code}</td><td>${escapeHtml(check.title)}</td><td class="num" data-finding-count="${check.finding}">${formatNumber(check.count)}</td></tr>`,
    )
    .join('\n');
  return `<section id="findings" aria-labelledby="findings-title">
<h2 id="findings-title">Findings on the URLs</h2>
<table class="overview"><thead><tr><th>Severity</th><th>Finding</th><th>Rule</th><th>What</th><th class="num">URLs</th></tr></thead>
<tbody>
${overview}
</tbody></table>
${report.checks.map((check, i) => findingTable(check, i)).join('\n')}
${duplicateGroupsTable(report)}
</section>`;
}

/** duplicate-content by group: each group's size and its URLs, the first listed first. */
function duplicateGroupsTable(report: AuditReport): string {
  const groups = report.duplicateGroups ?? [];
  if (groups.length === 0) return '';
  const rows = groups
    .map(
      (group) =>
        `<tr><td class="num">${formatNumber(group.count)}</td><td class="url">${group.urls.map((url) => escapeHtml(url)).join('<br>')}${group.count > group.urls.length ? `<br>… ${formatNumber(group.count - group.urls.length)} more` : ''}</td></tr>`,
    )
    .join('\n');
  return `<section class="finding" id="duplicate-groups">
<h3>Groups of listed URLs with the same content</h3>
<table class="examples"><thead><tr><th class="num">URLs</th><th>The same content at</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`;
}

function findingTable(check: CheckReport, index: number): string {
  const rows = check.examples
    .map(
      (example, row) =>
        `<tr data-row="${row}"><td class="url">${escapeHtml(example.url)}</td><td class="url">${placeHtml(example.sitemap, example.line)}</td><td>${escapeHtml(example.detail)}</td></tr>`,
    )
    .join('\n');
  return `<section class="finding" id="finding-${check.finding}" data-check="${index}">
<h3>${badge(check.severity)} ${check.finding} <span class="code">${check.code}</span> <span class="count">${formatNumber(check.count)}</span></h3>
${ruleText(check.code)}
${filterBox(`finding-${check.finding}`, check.examples.length, check.count)}
<table class="examples"><thead><tr><th>URL</th><th>Listed at</th><th>Detail</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`;
}

function siteSection(report: AuditReport): string {
  const { sitemaps } = report;
  const problems = report.siteChecks.map((check, i) => siteTable(check, i)).join('\n');
  const list = sitemaps.list
    .map(
      (sitemap) =>
        `<tr><td class="url">${escapeHtml(sitemap.url)}</td><td>${sitemap.foundBy}</td><td>${sitemap.status ?? 'no answer'}</td><td>${escapeHtml(sitemap.kind ?? '')}</td><td class="num">${formatNumber(sitemap.urls)}</td><td>${sitemap.ok ? '<span class="ok">read</span>' : '<span class="error">failed</span>'}</td><td class="num">${formatNumber(sitemap.errors)} / ${formatNumber(sitemap.warnings)} / ${formatNumber(sitemap.infos)}</td></tr>`,
    )
    .join('\n');
  const robots = sitemaps.robots
    ? `<p>${escapeHtml(sitemaps.robots.url)} declares ${sitemaps.robots.sitemaps.length === 0 ? 'no sitemap' : sitemaps.robots.sitemaps.map((url) => `<code>${escapeHtml(url)}</code>`).join(', ')}.</p>`
    : '';
  const noOwnSitemap = robotsNamesNoOwnSitemap(report);
  const robotsWarning =
    noOwnSitemap === undefined
      ? ''
      : `<p class="warning" id="robots-no-own-sitemap">${badge('warning')} ${escapeHtml(noOwnSitemap)}</p>`;
  const more =
    sitemaps.count > sitemaps.list.length
      ? `<p class="note">The first ${formatNumber(sitemaps.list.length)} of ${formatNumber(sitemaps.count)} sitemaps.</p>`
      : '';
  return `<section id="sitemaps" aria-labelledby="sitemaps-title">
<h2 id="sitemaps-title">The sitemaps themselves</h2>
${robots}
${robotsWarning}
<table class="sitemaps"><thead><tr><th>Sitemap</th><th>Found by</th><th>Status</th><th>Kind</th><th class="num">URLs</th><th>Read</th><th class="num">Errors / warnings / infos</th></tr></thead>
<tbody>
${list}
</tbody></table>
${more}
${report.siteChecks.length === 0 ? '<p class="ok">The validator found nothing wrong in the sitemaps.</p>' : problems}
</section>`;
}

function siteTable(check: SiteCheckReport, index: number): string {
  const rows = check.examples
    .map(
      (example, row) =>
        `<tr data-row="${row}"><td class="url">${placeHtml(example.sitemap, example.line, example.column)}</td><td class="url">${escapeHtml(example.url ?? '')}</td><td>${escapeHtml(example.detail)}</td></tr>`,
    )
    .join('\n');
  return `<section class="site-check" id="site-${check.code}" data-site-check="${index}">
<h3>${badge(check.severity)} ${check.code} <span class="code">${escapeHtml(check.title)}</span> <span class="count" data-site-count="${check.code}">${formatNumber(check.count)}</span></h3>
${ruleText(check.code)}
${filterBox(`site-${check.code}`, check.examples.length, check.count)}
<table class="examples"><thead><tr><th>Where</th><th>URL</th><th>Detail</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`;
}

function ruleText(code: string): string {
  const rule = RULES[code];
  if (!rule) return '';
  return `<details><summary>Why it matters, and how to fix it</summary><p>${escapeHtml(rule.why)}</p><p><strong>Fix:</strong> ${escapeHtml(rule.fix)}</p></details>`;
}

function filterBox(id: string, shown: number, count: number): string {
  const of =
    shown < count ? ` of ${formatNumber(count)} (the first ${formatNumber(shown)}; every one is in --rows)` : '';
  return `<p class="filter"><label>Filter <input type="search" class="filter-box" aria-controls="${id}" placeholder="URL, sitemap or detail"></label> <span class="shown"><span class="visible">${formatNumber(shown)}</span> shown${of}</span></p>`;
}

function badge(severity: Severity): string {
  return `<span class="badge ${severity}">${severity}</span>`;
}

/**
 * Where an example is listed, as HTML: the sitemap's URL may break anywhere, its `:line:column`
 * never (a line number split over two lines reads as two numbers).
 */
function placeHtml(sitemap: string | undefined, line: number | undefined, column?: number): string {
  if (sitemap === undefined) return '';
  if (line === undefined) return escapeHtml(sitemap);
  return `${escapeHtml(sitemap)}<span class="at">:${line}${column === undefined ? '' : `:${column}`}</span>`;
}

const STYLE = `
:root{--error:#c0392b;--warning:#b9770e;--info:#2471a3;--ok:#1e8449;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;background:#fafafa}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{border-bottom:2px solid #ddd;padding-bottom:.3rem;margin-top:2rem}
.meta{color:#555;margin:.2rem 0}
.cards{display:flex;flex-wrap:wrap;gap:.8rem;margin:.8rem 0}
.card{background:#fff;border:1px solid #ddd;border-left:6px solid #999;border-radius:4px;padding:.6rem 1rem;min-width:9rem}
.card .n{display:block;font-size:1.8rem;font-weight:700}
.card.error{border-left-color:var(--error)}.card.warning{border-left-color:var(--warning)}.card.info{border-left-color:var(--info)}.card.ok{border-left-color:var(--ok)}
.error{color:var(--error)}.ok{color:var(--ok)}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}figure{margin:0;background:#fff;border:1px solid #ddd;border-radius:4px;padding:.6rem}figure.wide{flex-basis:100%}figure.wide .chart{width:100%}
figcaption{font-weight:600;margin-bottom:.4rem}.chart{max-width:100%;height:auto;font-size:12px}.chart text{fill:#333}
table{border-collapse:collapse;width:100%;background:#fff;margin:.5rem 0;font-size:.9rem}
th,td{border:1px solid #e3e3e3;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f0f0f0}
table.examples{table-layout:fixed}table.examples th:nth-child(1){width:38%}table.examples th:nth-child(2){width:27%}
td.url{word-break:break-all;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.82rem}td.url .at{white-space:nowrap;word-break:normal}.num{text-align:right}
.badge{display:inline-block;border-radius:3px;padding:0 .4rem;color:#fff;font-size:.75rem;font-weight:600;text-transform:uppercase;vertical-align:middle}
.badge.error{background:var(--error)}.badge.warning{background:var(--warning)}.badge.info{background:var(--info)}
.code{color:#666;font-weight:400;font-size:.9rem}.count{float:right;font-size:1rem}
section.finding,section.site-check{margin:1.2rem 0 2rem}
.filter input{font:inherit;padding:.2rem .4rem;width:22rem;max-width:60vw}.shown{color:#555;margin-left:.6rem}
.note{color:#555;font-size:.9rem}details{margin:.3rem 0}
@media print{body{max-width:none;background:#fff}.filter{display:none}a{color:inherit;text-decoration:none}details{display:block}
tr,figure,.card{break-inside:avoid}h2,h3{break-after:avoid}}
`;

/**
 * The filter boxes: each hides the rows of its table whose example (from the embedded data, not
 * the page's text) does not contain what is typed, and says how many are shown.
 */
const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('audit-data').textContent);
  // What a row shows, as it shows it: the URL, where it is listed (sitemap:line:column), the detail.
  function words(example) {
    var place = [example.sitemap, example.line, example.column]
      .filter(function (part) { return part !== undefined; }).join(':');
    return [example.url, place, example.detail].join(' ').toLowerCase();
  }
  function wire(section, examples) {
    var box = section.querySelector('.filter-box');
    var visible = section.querySelector('.visible');
    var rows = section.querySelectorAll('tbody tr');
    var texts = examples.map(words);
    box.addEventListener('input', function () {
      var wanted = box.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        var match = wanted === '' || texts[Number(row.dataset.row)].indexOf(wanted) !== -1;
        row.hidden = !match;
        if (match) shown += 1;
      });
      visible.textContent = shown.toLocaleString('en-US');
    });
  }
  document.querySelectorAll('section[data-check]').forEach(function (section) {
    wire(section, data.checks[Number(section.dataset.check)].examples);
  });
  document.querySelectorAll('section[data-site-check]').forEach(function (section) {
    wire(section, data.siteChecks[Number(section.dataset.siteCheck)].examples);
  });
})();
`;
