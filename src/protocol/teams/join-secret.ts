import { base64UrlEncode } from "../encoding/base64url.ts";
import { MALFORMED_JOIN_SECRET_MESSAGE } from "../errors/error-messages.ts";
import type { ProtocolError } from "../errors/protocol-error.ts";

/** The fixed, case-sensitive join secret prefix (docs/spec/protocol.md §9). */
export const JOIN_SECRET_PREFIX = "brg1.";

/** What a rendering of a parsed secret shows instead of the secret half. */
export const REDACTED_SECRET_HALF = "[redacted]";

/**
 * Smallest number of random bytes {@link generateJoinSecret} accepts (128 bits). The spec leaves
 * the secret half's format open (docs/spec/protocol.md §10); ours is base64url of these bytes.
 */
export const MIN_JOIN_SECRET_RANDOM_BYTES = 16;

/**
 * The leak-scan pattern the conformance suite uses (docs/spec/protocol.md §9), as regex source.
 * Build a fresh `RegExp` per use (a global regex is stateful) or call
 * {@link containsJoinSecretShape}.
 *
 * @example
 * new RegExp(JOIN_SECRET_LEAK_PATTERN_SOURCE, "g");
 */
export const JOIN_SECRET_LEAK_PATTERN_SOURCE = "brg1\\.[^\\s\"'<>`.]+(\\.[^\\s\"'<>`.]+)+";

const LEAK_PATTERN = new RegExp(JOIN_SECRET_LEAK_PATTERN_SOURCE);

/**
 * GO_SPACE (docs/spec/formats.md §0), Cc and Cf — none may appear in either half — and lone
 * surrogates.
 */
const FORBIDDEN_IN_SECRET =
  /[\t-\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\p{Cc}\p{Cf}]|[\uD800-\uDFFF]/u;

/**
 * A parsed join secret. Every string or JSON rendering redacts the secret half
 * (`brg1.<team_ref>.[redacted]`); only {@link JoinSecret.reveal} gives it back, for the one
 * place that must send or digest it.
 *
 * @example
 * const r = parseJoinSecret("brg1.t-9c1e.Zm9vYmFy");
 * if (r.ok) String(r.value) === "brg1.t-9c1e.[redacted]";
 */
export class JoinSecret {
  /** Everything between the prefix and the last `.` (may contain dots). */
  readonly teamRef: string;
  readonly #secret: string;

  /** Use {@link parseJoinSecret}; the halves are assumed valid. */
  constructor(teamRef: string, secret: string) {
    this.teamRef = teamRef;
    this.#secret = secret;
  }

  /** The full secret `brg1.<team_ref>.<secret>`: never log or display it. */
  reveal(): string {
    return `${JOIN_SECRET_PREFIX}${this.teamRef}.${this.#secret}`;
  }

  /** The secret half alone: never log or display it. */
  revealSecretHalf(): string {
    return this.#secret;
  }

  /** `brg1.<team_ref>.[redacted]`. */
  toString(): string {
    return `${JOIN_SECRET_PREFIX}${this.teamRef}.${REDACTED_SECRET_HALF}`;
  }

  /** JSON renders redacted too. */
  toJSON(): string {
    return this.toString();
  }
}

// `util.inspect` and `console.log` render redacted too (defined outside the class body because a
// computed method name cannot be declared under isolatedDeclarations).
Object.defineProperty(JoinSecret.prototype, Symbol.for("nodejs.util.inspect.custom"), {
  value(this: JoinSecret): string {
    return this.toString();
  },
});

/** Result of {@link parseJoinSecret}. */
export type ParseJoinSecretResult =
  | { readonly ok: true; readonly value: JoinSecret }
  | { readonly ok: false; readonly error: ProtocolError };

/** The docs/spec/protocol.md §9 malformed-secret error: fixed message, no part of the input. */
function malformedJoinSecret(): ProtocolError {
  return {
    code: "invalid_input",
    message: MALFORMED_JOIN_SECRET_MESSAGE,
    retryable: false,
    details: { field: "join_secret", reason: "invalid_value" },
  };
}

function isValidHalf(half: string): boolean {
  return half.length > 0 && !FORBIDDEN_IN_SECRET.test(half);
}

/**
 * Parses `brg1.<team_ref>.<secret>` (docs/spec/protocol.md §9) and never throws: prefix exact;
 * `team_ref` is everything up to the **last** `.`; both halves non-empty; neither contains a
 * GO_SPACE, Cc or Cf code point or an unpaired surrogate; no trimming. A malformed secret fails
 * with `invalid_input`, `details = { field: "join_secret", reason: "invalid_value" }` and a fixed
 * message.
 *
 * @example
 * parseJoinSecret("brg1.team.with.dots.s3cr3t"); // ok, teamRef "team.with.dots"
 * parseJoinSecret(" brg1.t.s").ok === false;     // no trimming
 */
export function parseJoinSecret(text: string): ParseJoinSecretResult {
  if (typeof text !== "string" || !text.startsWith(JOIN_SECRET_PREFIX)) {
    return { ok: false, error: malformedJoinSecret() };
  }
  const last = text.lastIndexOf(".");
  const teamRef = text.slice(JOIN_SECRET_PREFIX.length, last);
  const secret = text.slice(last + 1);
  if (last < JOIN_SECRET_PREFIX.length || !isValidHalf(teamRef) || !isValidHalf(secret)) {
    return { ok: false, error: malformedJoinSecret() };
  }
  return { ok: true, value: new JoinSecret(teamRef, secret) };
}

/** Codes of {@link JoinSecretError}. */
export const JOIN_SECRET_ERROR_CODES = [
  "invalid_team_ref",
  "invalid_secret_half",
  "insufficient_randomness",
] as const;

/** A {@link JoinSecretError} code. */
export type JoinSecretErrorCode = (typeof JOIN_SECRET_ERROR_CODES)[number];

/**
 * Thrown by the join-secret encoders on a caller's bad value; the message never contains it.
 *
 * @example
 * try { formatJoinSecret("", "x"); } catch (e) { (e as JoinSecretError).code === "invalid_team_ref"; }
 */
export class JoinSecretError extends Error {
  /** Which rule the caller's value broke. */
  readonly code: JoinSecretErrorCode;

  /** Builds the error for `code`. */
  constructor(code: JoinSecretErrorCode) {
    super(`cannot build a join secret: ${code.replaceAll("_", " ")}`);
    this.name = "JoinSecretError";
    this.code = code;
  }
}

/**
 * Builds `brg1.<teamRef>.<secretHalf>`. Throws {@link JoinSecretError} when `teamRef` is empty or
 * holds a GO_SPACE/Cc/Cf code point (`invalid_team_ref`), or when `secretHalf` is empty, holds a
 * `.` or such a code point (`invalid_secret_half`). The result always parses back to the halves.
 *
 * @example
 * formatJoinSecret("t-9c1e", "Zm9vYmFy") === "brg1.t-9c1e.Zm9vYmFy";
 */
export function formatJoinSecret(teamRef: string, secretHalf: string): string {
  if (!isValidHalf(teamRef)) throw new JoinSecretError("invalid_team_ref");
  if (!isValidHalf(secretHalf) || secretHalf.includes(".")) {
    throw new JoinSecretError("invalid_secret_half");
  }
  return `${JOIN_SECRET_PREFIX}${teamRef}.${secretHalf}`;
}

/**
 * Mints a join secret for `teamRef` whose secret half is the unpadded base64url of `randomBytes`
 * (the caller supplies them, e.g. `crypto.getRandomValues(new Uint8Array(32))`, so tests stay
 * deterministic). Throws {@link JoinSecretError} `insufficient_randomness` below
 * {@link MIN_JOIN_SECRET_RANDOM_BYTES} bytes, and as {@link formatJoinSecret} for a bad team ref.
 *
 * @example
 * generateJoinSecret("t-9c1e", new Uint8Array(16)) === "brg1.t-9c1e.AAAAAAAAAAAAAAAAAAAAAA";
 */
export function generateJoinSecret(teamRef: string, randomBytes: Uint8Array): string {
  if (randomBytes.length < MIN_JOIN_SECRET_RANDOM_BYTES) {
    throw new JoinSecretError("insufficient_randomness");
  }
  return formatJoinSecret(teamRef, base64UrlEncode(randomBytes));
}

/**
 * True when `text` contains something shaped like a join secret (the suite's leak-scan pattern,
 * docs/spec/protocol.md §9). Use it to guard logs, stderr and files.
 *
 * @example
 * containsJoinSecretShape("token brg1.t-9c1e.Zm9v") === true;
 */
export function containsJoinSecretShape(text: string): boolean {
  return LEAK_PATTERN.test(text);
}
