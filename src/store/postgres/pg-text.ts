/**
 * PostgreSQL `text` cannot hold U+0000, which BAP/1 allows in every string (JSON `\u0000`) and
 * which the SQLite store keeps as it is. Every string crossing into PostgreSQL is escaped with
 * U+0001 as the escape character: U+0000 → U+0001 "0", U+0001 → U+0001 "1"; everything else is
 * unchanged. The map works character by character, so it is injective and commutes with
 * concatenation: equality, and equality of concatenations (the idempotency fingerprint), are
 * the same on escaped text as on the original. Ids, digests and times never contain either.
 */
const NUL = "\u0000";
const ESCAPE = "\u0001";

/** The text stored for `value` (see the module comment); the input itself when nothing changes. */
export function encodeText(value: string): string {
  if (!value.includes(NUL) && !value.includes(ESCAPE)) return value;
  let out = "";
  for (const c of value) {
    if (c === NUL) out += `${ESCAPE}0`;
    else if (c === ESCAPE) out += `${ESCAPE}1`;
    else out += c;
  }
  return out;
}

/** The original of stored text (the inverse of {@link encodeText}). */
export function decodeText(value: string): string {
  if (!value.includes(ESCAPE)) return value;
  let out = "";
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i] as string;
    if (c !== ESCAPE) {
      out += c;
      continue;
    }
    i += 1;
    out += value[i] === "0" ? NUL : ESCAPE;
  }
  return out;
}

/** Query parameters with every string, and every string in an array, escaped. */
export function encodeParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => {
    if (typeof p === "string") return encodeText(p);
    if (Array.isArray(p)) return p.map((e: unknown) => (typeof e === "string" ? encodeText(e) : e));
    return p;
  });
}

/** A result row with every string column decoded, in place. */
export function decodeRow<T extends object>(row: T): T {
  const record = row as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value === "string") record[key] = decodeText(value);
  }
  return row;
}
