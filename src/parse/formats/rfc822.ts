/**
 * RSS dates (RFC 822 as updated by RFC 1123: `Thu, 17 Dec 2009 12:04:56 +0200`) → the W3C
 * datetime a lastmod holds, keeping the offset the feed wrote.
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ZONES: Readonly<Record<string, number>> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};
const SHAPE =
  /^(?:[A-Za-z]{3,9},?\s*)?(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|[A-Za-z]{1,3})$/;

export function rfc822ToW3c(text: string): string | undefined {
  const m = SHAPE.exec(text.trim());
  if (!m) return undefined;
  const [, d, monthName, y, h, mi, s, zoneText] = m;
  const month = MONTHS.indexOf(monthName!.slice(0, 3).toLowerCase()) + 1;
  const year = y!.length === 2 ? 1900 + Number(y) + (Number(y) < 50 ? 100 : 0) : Number(y);
  const day = Number(d);
  const [hour, minute, second] = [Number(h), Number(mi), Number(s ?? '0')];
  if (month === 0 || hour > 23 || minute > 59 || second > 60) return undefined;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day) return undefined;
  let offset: number;
  if (/^[+-]/.test(zoneText!)) {
    offset = (zoneText![0] === '-' ? -1 : 1) * (Number(zoneText!.slice(1, 3)) * 60 + Number(zoneText!.slice(3, 5)));
  } else {
    const known = ZONES[zoneText!.toLowerCase()];
    if (known === undefined) return undefined;
    offset = known;
  }
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const zone =
    offset === 0
      ? '+00:00'
      : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(Math.min(second, 59))}${zone}`;
}
