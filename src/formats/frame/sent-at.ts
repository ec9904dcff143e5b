// Go's time.RFC3339 layout as time.Parse reads it: upper-case T and Z, optional fraction,
// offset required.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * What `sent-at` shows for a `created_at` that is not RFC 3339: Go's zero time, the value a
 * failed parse leaves behind, so `build` never throws and never prints unverified text there.
 */
export const UNPARSABLE_SENT_AT = "0001-01-01T00:00:00Z";

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The proleptic Gregorian date of a day count since 1970-01-01. */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

function daysInMonth(year: number, month: number): number {
  return (
    daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) -
    daysFromCivil(year, month, 1)
  );
}

/** Two decimal digits (0-99). */
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** Four decimal digits (0-9999). */
const four = (n: number): string =>
  n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : `${n}`;

/**
 * The frame's `sent-at` (docs/spec/formats.md §2.3): `created_at` read as RFC 3339 (offset or `Z`
 * required), converted to UTC, fractional seconds TRUNCATED, printed `YYYY-MM-DDTHH:MM:SSZ`.
 * Pure arithmetic, no `Date` parsing. Text that is not RFC 3339 (or a date outside years
 * 0000-9999 after conversion) gives {@link UNPARSABLE_SENT_AT}.
 *
 * @example formatSentAt("2026-10-02T11:15:42.618+02:00") === "2026-10-02T09:15:42Z"
 */
export function formatSentAt(createdAt: string): string {
  const m = RFC3339.exec(createdAt);
  if (m === null) return UNPARSABLE_SENT_AT;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return UNPARSABLE_SENT_AT;
  if (hour > 23 || minute > 59 || second > 59) return UNPARSABLE_SENT_AT;
  let offsetMinutes = 0;
  if (m[7] !== undefined) {
    const oh = Number(m[8]);
    const om = Number(m[9]);
    if (oh > 23 || om > 59) return UNPARSABLE_SENT_AT;
    offsetMinutes = (m[7] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const total =
    daysFromCivil(year, month, day) * 86_400 +
    hour * 3600 +
    minute * 60 +
    second -
    offsetMinutes * 60;
  const days = Math.floor(total / 86_400);
  const rest = total - days * 86_400;
  const [y, mo, d] = civilFromDays(days);
  if (y < 0 || y > 9999) return UNPARSABLE_SENT_AT;
  return `${four(y)}-${two(mo)}-${two(d)}T${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}Z`;
}
