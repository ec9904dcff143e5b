const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * True when `value` is an RFC 3339 `date-time` (docs/spec/protocol.md §2.7): `T` or `t` separator,
 * optional fraction of any length, `Z`/`z` or a `±hh:mm` offset; calendar-checked (leap years),
 * hour 0–23, minute 0–59, second 0–60 (RFC 3339 allows a leap second), offset hour 0–23.
 *
 * @example
 * isRfc3339Timestamp("2026-10-02T09:15:42Z") === true;
 * isRfc3339Timestamp("2026-10-02T09:15:42.5+02:00") === true;
 * isRfc3339Timestamp("2026-02-30T00:00:00Z") === false;
 */
export function isRfc3339Timestamp(value: string): boolean {
  const match = RFC3339.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const maxDay = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  if (day > maxDay) return false;
  if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6]) > 60) return false;
  if (match[7] !== undefined && (Number(match[7]) > 23 || Number(match[8]) > 59)) return false;
  return true;
}
