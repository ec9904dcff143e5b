import { StoreUnavailableError } from "../../service/store.ts";

/**
 * SQLSTATE classes and codes that mean "the database cannot answer now", not "this request is
 * wrong": connection exceptions (08), insufficient resources (53), operator intervention (57:
 * shutdown, crash, cannot connect now, a cancelled statement after its timeout), and the two
 * that a retry resolves (serialization failure, deadlock).
 */
const UNAVAILABLE_CLASSES = ["08", "53", "57"];
const UNAVAILABLE_CODES = ["40001", "40P01"];

/** Node socket errors of a lost or refused connection. */
const NETWORK_CODES = [
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
];

/**
 * Whether `error`, thrown by `pg`, means the database is unreachable or refusing work for now
 * (see {@link StoreUnavailableError}) rather than a fault of the statement.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (UNAVAILABLE_CODES.includes(code) || NETWORK_CODES.includes(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  // pg's own messages for a connection that ended, timed out or never opened.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|not queryable/i.test(
    error.message,
  );
}

/**
 * A fixed sentence for why a connection to the database could not be used, for an operator's
 * one-line report, from the error's code alone (the database's own message may name the role,
 * the database or the host, so it is never used): the SQLSTATE refusals met when connecting,
 * an unreachable database, what to check for a failed connection or TLS handshake (an `sslmode`
 * the database does not speak, a certificate this machine does not trust; `pg` throws a plain
 * `Error` for some of these), any other SQLSTATE as the database refusing the store's setup (a
 * read-only standby, a full disk, missing rights), and for any other code (a program fault) a
 * sentence that does not send the operator to the database.
 *
 * @example connectRefusal("3D000") === "the database does not exist"
 */
export function connectRefusal(code: string): string {
  if (code === "password_missing") {
    return "the database asks for a password and none was given; set PGPASSWORD, put it in ~/.pgpass, or give it in the BRIGADE_STORE address";
  }
  if (code.startsWith("28")) return "the database refused the role or its password";
  if (code === "3D000") return "the database does not exist";
  if (code === "42501") return "the role may not create the schema";
  if (code === "store_unavailable") {
    return "the database is unreachable; check the address and that PostgreSQL runs";
  }
  if (code === "Error" || code.startsWith("08") || CONNECTION_FAILURE_CODE.test(code)) {
    return "the connection to the database failed; check the address and its parameters (sslmode: does the database speak TLS, and does this machine trust its certificate?)";
  }
  if (/^[0-9A-Z]{5}$/.test(code)) {
    return "the database refused the store's setup; check that it is a writable primary with free space and that the role may write there";
  }
  return "an unexpected failure while opening the store, not an answer of the database";
}

/** Node's codes of a failed connection or TLS handshake. */
const CONNECTION_FAILURE_CODE = /^E[A-Z]+$|CERT|SSL|TLS|SELF_SIGNED|HOSTNAME|ALTNAME|UNABLE_TO/;

/** `pg`'s own messages (a plain `Error`, no code) when the database asks for a password it was not given. */
const NO_PASSWORD_MESSAGE =
  /^SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a (non-empty )?string$/;

/**
 * The code to report for a failure of the PostgreSQL store (opening it, for {@link connectRefusal},
 * or a write through it), never its message, which may carry a value:
 * `password_missing` when the database asked for a password and none was given (no password in
 * the address, `PGPASSWORD` or `~/.pgpass`; `pg` throws a plain `Error` for it, which would
 * otherwise read as a failed connection), else the error's string `code`, else its name, else
 * `unknown`. Never throws.
 *
 * @example connectFailureCode(new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string")) === "password_missing"
 */
export function connectFailureCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  if (!(error instanceof Error)) return "unknown";
  return NO_PASSWORD_MESSAGE.test(error.message) ? "password_missing" : error.name;
}
