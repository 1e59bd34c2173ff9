/** The newest and oldest lastmod of a sitemap: compared as instants, however they are written. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { w3cToEpochMillis } from '../../src/core/datetime.js';
import { InstantCache, LastmodRange } from '../../src/discover/lastmod-range.js';

function rangeOf(lastmods: readonly string[]): { newest?: string; oldest?: string } {
  const range = new LastmodRange(new InstantCache());
  for (const lastmod of lastmods) range.add(lastmod);
  return { ...(range.newest ? { newest: range.newest } : {}), ...(range.oldest ? { oldest: range.oldest } : {}) };
}

test('compares values of one form as text, and of different forms or zones as instants', () => {
  assert.deepEqual(rangeOf(['2024-05-02', '2024-05-01', '2024-05-03', '2024-05-02']), {
    newest: '2024-05-03',
    oldest: '2024-05-01',
  });
  // The same length, another zone: 10:00+02:00 is 08:00Z, before 09:00Z.
  assert.deepEqual(rangeOf(['2024-05-01T09:00:00Z', '2024-05-01T10:00:00+02:00', '2024-05-01T09:30:00+00:00']), {
    newest: '2024-05-01T09:30:00+00:00',
    oldest: '2024-05-01T10:00:00+02:00',
  });
  // A date alone, then times of that day and the day before.
  assert.deepEqual(rangeOf(['2024-05-01', '2024-05-01T10:00+01:00', '2024-04-30T23:59:59.5Z']), {
    newest: '2024-05-01T10:00+01:00',
    oldest: '2024-04-30T23:59:59.5Z',
  });
  assert.deepEqual(rangeOf(['not a date', '2024-05']), { newest: '2024-05', oldest: '2024-05' });
});

test('finds the same bounds as comparing every value as an instant', () => {
  const lastmod = fc
    .tuple(
      fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true }),
      fc.constantFrom('date', 'minutes', 'seconds', 'fraction'),
      fc.constantFrom('Z', '+00:00', '+02:00', '-05:30'),
    )
    .map(([date, form, zone]) => {
      const iso = date.toISOString();
      if (form === 'date') return iso.slice(0, 10);
      const time = form === 'minutes' ? iso.slice(0, 16) : form === 'seconds' ? iso.slice(0, 19) : iso.slice(0, 22);
      return time + zone;
    });
  fc.assert(
    fc.property(fc.array(lastmod, { minLength: 1, maxLength: 30 }), (lastmods) => {
      const instants = lastmods.map((text) => w3cToEpochMillis(text)!);
      const { newest, oldest } = rangeOf(lastmods);
      assert.equal(w3cToEpochMillis(newest!), Math.max(...instants));
      assert.equal(w3cToEpochMillis(oldest!), Math.min(...instants));
    }),
    { numRuns: 1_000 },
  );
});
