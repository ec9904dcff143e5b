/**
 * What a `postgres://` (or `postgresql://`) store address names, with the password kept out of
 * every printable form.
 */
export interface PostgresUrl {
  /** The address as given, for the driver only: never log or print it. */
  readonly connectionString: string;
  /** `postgres://user@host:port/database`, never the password: for logs, start-up lines, health. */
  readonly display: string;
}

/** A store address parsed, or why not (value-free). */
export type PostgresUrlResult =
  | { ok: true; url: PostgresUrl }
  | { ok: false; reason: "not_postgres_url" | "malformed_url" };

/** Whether `value` asks for the PostgreSQL store (its scheme is `postgres:` or `postgresql:`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * Parses a PostgreSQL store address. Never throws; the reason never echoes the value (it may
 * carry a password).
 *
 * @example
 * parsePostgresUrl("postgres://brigade:pw@127.0.0.1:5432/brigade")
 * // { ok: true, url: { display: "postgres://brigade@127.0.0.1:5432/brigade", … } }
 */
export function parsePostgresUrl(value: string): PostgresUrlResult {
  if (!isPostgresUrl(value)) return { ok: false, reason: "not_postgres_url" };
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { ok: false, reason: "malformed_url" };
  }
  const user = parsed.username === "" ? "" : `${parsed.username}@`;
  const host = parsed.host === "" ? "localhost" : parsed.host;
  const database = parsed.pathname.replace(/^\//, "");
  const display = `postgres://${user}${host}/${database}`.replace(/[^\x21-\x7e]/g, "?");
  return { ok: true, url: { connectionString: value, display } };
}
