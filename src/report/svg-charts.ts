/**
 * Small charts as inline SVG, drawn here rather than in the browser: they show without
 * JavaScript, print, and need nothing from outside the page. Each has a title and a text
 * alternative for screen readers; every label is escaped.
 */
import { formatNumber } from './format.js';
import { escapeXml as escapeHtml } from '../core/xml.js';

export interface Bar {
  label: string;
  count: number;
  /** A CSS colour. */
  color: string;
}

/** One horizontal bar per label, its count beside it. */
export function horizontalBars(title: string, bars: readonly Bar[]): string {
  const rowHeight = 22;
  const labelWidth = 90;
  const barWidth = 300;
  const height = Math.max(1, bars.length) * rowHeight + 8;
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const rows = bars.map((bar, i) => {
    const y = 4 + i * rowHeight;
    const width = bar.count === 0 ? 0 : Math.max(2, Math.round((bar.count / max) * barWidth));
    return `<g><text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(bar.label)}</text><rect x="${labelWidth}" y="${y + 3}" width="${width}" height="${rowHeight - 6}" fill="${bar.color}" rx="2"/><text x="${labelWidth + width + 6}" y="${y + 15}">${formatNumber(bar.count)}</text></g>`;
  });
  return svg(title, labelWidth + barWidth + 80, height, describe(bars), rows.join(''));
}

/** A ring split into parts, with a legend. */
export function ring(title: string, parts: readonly Bar[]): string {
  const total = parts.reduce((sum, part) => sum + part.count, 0);
  const radius = 50;
  const circumference = 2 * Math.PI * radius;
  let offset = 0;
  const arcs = parts.map((part) => {
    const length = total === 0 ? 0 : (part.count / total) * circumference;
    const arc = `<circle cx="70" cy="70" r="${radius}" fill="none" stroke="${part.color}" stroke-width="24" stroke-dasharray="${length.toFixed(2)} ${(circumference - length).toFixed(2)}" stroke-dashoffset="${(-offset).toFixed(2)}" transform="rotate(-90 70 70)"/>`;
    offset += length;
    return arc;
  });
  const empty =
    total === 0 ? `<circle cx="70" cy="70" r="${radius}" fill="none" stroke="#ddd" stroke-width="24"/>` : '';
  const legend = parts.map((part, i) => {
    const y = 40 + i * 26;
    const share = total === 0 ? '' : ` (${((part.count * 100) / total).toFixed(1)}%)`;
    return `<rect x="150" y="${y}" width="14" height="14" fill="${part.color}"/><text x="172" y="${y + 12}">${escapeHtml(part.label)}: ${formatNumber(part.count)}${share}</text>`;
  });
  return svg(title, 420, 140, describe(parts), empty + arcs.join('') + legend.join(''));
}

/** The months the axis spans at most around the marked one: before it, and after it. */
export const MONTHS_BEFORE_MARK = 20 * 12;
export const MONTHS_AFTER_MARK = 12;

/**
 * Counts by month (YYYY-MM) as columns on a continuous time axis (months without any count stand
 * empty), with one month marked (`mark`: the audit's date) by a line. The axis spans at most 20
 * years before the mark and one after: a lastmod in 2999 or 1970 would squash every real month
 * into a sliver, so such outliers are counted apart, in words beside the axis.
 */
export function monthColumns(
  title: string,
  allMonths: readonly { month: string; count: number }[],
  mark: string,
): string {
  const [from, to] = [addMonths(mark, -MONTHS_BEFORE_MARK), addMonths(mark, MONTHS_AFTER_MARK)];
  const months = allMonths.filter((m) => m.month >= from && m.month <= to);
  const earlier = allMonths.filter((m) => m.month < from);
  const later = allMonths.filter((m) => m.month > to);
  const axis = monthRange([...months.map((m) => m.month), mark]);
  const counts = new Map(months.map((m) => [m.month, m.count]));
  const width = 1000;
  const height = 180;
  const left = 44;
  const bottom = 150;
  const step = (width - left - 60) / Math.max(1, axis.length);
  const max = Math.max(1, ...months.map((m) => m.count));
  const columns = axis.map((month, i) => {
    const count = counts.get(month) ?? 0;
    const h = count === 0 ? 0 : Math.max(1, (count / max) * (bottom - 20));
    const x = left + i * step;
    return `<rect x="${x.toFixed(2)}" y="${(bottom - h).toFixed(2)}" width="${Math.max(1, step - 1).toFixed(2)}" height="${h.toFixed(2)}" fill="#4b7bec"><title>${month}: ${formatNumber(count)}</title></rect>`;
  });
  const every = Math.max(1, Math.ceil(axis.length / 8));
  const ticks = axis
    .map((month, i) =>
      i % every === 0 ? `<text x="${(left + i * step).toFixed(2)}" y="${bottom + 16}">${month}</text>` : '',
    )
    .join('');
  const markAt = axis.indexOf(mark);
  const markX = left + markAt * step + step / 2;
  const marker = `<line x1="${markX.toFixed(2)}" y1="10" x2="${markX.toFixed(2)}" y2="${bottom}" stroke="#c0392b" stroke-width="2" stroke-dasharray="4 3"/><text x="${(markX + 4).toFixed(2)}" y="20" fill="#c0392b">audit ${mark}</text>`;
  const scale = `<text x="${left - 6}" y="24" text-anchor="end">${formatNumber(max)}</text><text x="${left - 6}" y="${bottom}" text-anchor="end">0</text><line x1="${left}" y1="${bottom}" x2="${width - 60}" y2="${bottom}" stroke="#999"/>`;
  const outliers = [
    outlierText(earlier, `before ${from}`, 'earliest', earlier[0]?.month),
    outlierText(later, `after ${to}`, 'latest', later.at(-1)?.month),
  ].filter((part) => part !== '');
  const apart = outliers
    .map(
      (part, i) =>
        `<text x="${width - 60}" y="${bottom + 16 + 14 * (i + 1)}" text-anchor="end" fill="#c0392b">${escapeHtml(part)}</text>`,
    )
    .join('');
  const text =
    allMonths.length === 0
      ? 'No URL checked has a lastmod.'
      : `${describe(months.map((m) => ({ label: m.month, count: m.count })))}; the audit ran in ${mark}.${outliers.map((part) => ` ${part}.`).join('')}`;
  return svg(title, width, height + 14 * outliers.length, text, scale + columns.join('') + ticks + marker + apart);
}

/** "2 URLs with a lastmod after 2025-05, not drawn (latest 2999-01)", or '' when there are none. */
function outlierText(
  months: readonly { count: number }[],
  where: string,
  which: string,
  extreme: string | undefined,
): string {
  const count = months.reduce((sum, m) => sum + m.count, 0);
  if (count === 0) return '';
  return `${formatNumber(count)} ${count === 1 ? 'URL' : 'URLs'} with a lastmod ${where}, not drawn (${which} ${extreme})`;
}

/** `month` (YYYY-MM) moved by `delta` months. */
function addMonths(month: string, delta: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + delta;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every month from the earliest to the latest given, in order. */
function monthRange(months: readonly string[]): string[] {
  const sorted = [...months].sort();
  const [first, last] = [sorted[0]!, sorted.at(-1)!];
  const range: string[] = [];
  let year = Number(first.slice(0, 4));
  let month = Number(first.slice(5, 7));
  for (;;) {
    const label = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    range.push(label);
    if (label >= last || range.length > 1200) return range;
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
}

function describe(parts: readonly { label: string; count: number }[]): string {
  return parts.map((part) => `${part.label}: ${formatNumber(part.count)}`).join(', ');
}

function svg(title: string, width: number, height: number, description: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title><desc>${escapeHtml(description)}</desc>${body}</svg>`;
}
