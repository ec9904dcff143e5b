import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatSentAt, UNPARSABLE_SENT_AT } from "./sent-at.ts";

// The previous formatting (tuple destructuring, padStart) over Date arithmetic: an independent
// reference for the allocation-free parse and pad.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/;
function referenceSentAt(createdAt: string): string {
  const m = RFC3339.exec(createdAt);
  if (m === null) return UNPARSABLE_SENT_AT;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fix = (y0: number, mo: number, d: number): number => {
    const dt = new Date(0);
    dt.setUTCFullYear(y0, mo - 1, d);
    return Math.floor(dt.getTime() / 86_400_000);
  };
  const inMonth =
    fix(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - fix(year, month, 1);
  if (month < 1 || month > 12 || day < 1 || day > inMonth) return UNPARSABLE_SENT_AT;
  if (hour > 23 || minute > 59 || second > 59) return UNPARSABLE_SENT_AT;
  let offsetMinutes = 0;
  if (m[7] !== undefined) {
    const oh = Number(m[8]);
    const om = Number(m[9]);
    if (oh > 23 || om > 59) return UNPARSABLE_SENT_AT;
    offsetMinutes = (m[7] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const dt = new Date(0);
  dt.setUTCFullYear(year, month - 1, day);
  dt.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const y = dt.getUTCFullYear();
  if (y < 0 || y > 9999) return UNPARSABLE_SENT_AT;
  const pad = (n: number, width: number): string => String(n).padStart(width, "0");
  return `${pad(y, 4)}-${pad(dt.getUTCMonth() + 1, 2)}-${pad(dt.getUTCDate(), 2)}T${pad(dt.getUTCHours(), 2)}:${pad(dt.getUTCMinutes(), 2)}:${pad(dt.getUTCSeconds(), 2)}Z`;
}

const digits = (n: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, "0"));
const stamp = fc
  .tuple(
    fc.oneof(digits(4, 9999), fc.constantFrom("0000", "0001", "9999", "1970", "2000", "2100")),
    digits(2, 13),
    digits(2, 32),
    digits(2, 24),
    digits(2, 60),
    digits(2, 60),
    fc.constantFrom("", ".618", ".9", ".000000001"),
    fc.oneof(
      fc.constant("Z"),
      fc
        .tuple(fc.constantFrom("+", "-"), digits(2, 24), digits(2, 60))
        .map(([sign, h, mi]) => `${sign}${h}:${mi}`),
    ),
  )
  .map(([y, mo, d, h, mi, s, frac, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${zone}`);

describe("formatSentAt equals a Date-based reference with padStart", () => {
  test("random RFC 3339 stamps, valid and out of range, across the year 0000 and 9999 edges", () => {
    fc.assert(
      fc.property(stamp, (s) => {
        expect(formatSentAt(s)).toBe(referenceSentAt(s));
      }),
      { numRuns: 5000 },
    );
  });

  test("edges", () => {
    for (const s of [
      "0000-01-01T00:00:00Z",
      "0000-01-01T00:30:00+01:00",
      "9999-12-31T23:59:59Z",
      "9999-12-31T23:59:59-00:01",
      "2024-02-29T09:05:07.5+09:05",
      "2023-02-29T00:00:00Z",
      "2026-10-02T11:15:42.618+02:00",
    ]) {
      expect(formatSentAt(s), s).toBe(referenceSentAt(s));
    }
    expect(formatSentAt("0000-01-01T00:30:00+01:00")).toBe(UNPARSABLE_SENT_AT);
    expect(formatSentAt("2026-10-02T11:15:42.618+02:00")).toBe("2026-10-02T09:15:42Z");
  });
});
