import { sanitize } from "../sanitize/index.ts";
import {
  goTrimSpace,
  isWellFormed,
  isWellFormedUtf8,
  repairUtf8,
  utf8ByteLength,
} from "../text/index.ts";
import {
  FrameConfigError,
  type FrameConfigReason,
  REASON_FILE_EMPTY,
  REASON_FILE_NOT_UTF8,
  REASON_FILE_TOO_LARGE,
  REASON_FILE_UNSAFE,
  REASON_INVALID_LEVEL,
} from "./config-error.ts";
import { LEVEL_CUSTOM, LEVEL_GUARDED, LEVEL_OPEN, LEVEL_STRICT, type Level } from "./levels.ts";
import { GUARDED_CLAUSE, STRICT_CLAUSE } from "./preamble.ts";
import { MAX_CUSTOM_BYTES } from "./tokens.ts";

/**
 * Selects the frame's instruction clause: a named level, or `custom` with the user's folded
 * clause in `custom`. `custom` means something ONLY for level `custom`; {@link clauseOf} ignores
 * it for a named level, so smuggled text changes nothing even if validation were skipped.
 */
export interface Instruction {
  readonly level: Level;
  readonly custom: string;
}

/** Result of the clause and instruction checks: a reason plus a ready {@link FrameConfigError}. */
export type ClauseCheckResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: FrameConfigReason; readonly error: FrameConfigError };

const CRLF_ALL = /\r\n/g;
const NEWLINE_OR_TAB_ALL = /[\n\t]/g;

/**
 * Folds a `frame_file`'s text onto the one line the preamble must stay (docs/spec/formats.md §2.6):
 * CRLF to LF; every LF and tab to one space; Go whitespace trimmed; then exactly one trailing
 * space. An empty result stays `""` (no space). Nothing else changes: a clause is refused, never
 * repaired.
 *
 * @example foldClause("  Ask me\r\nbefore any deploy.\t\n") === "Ask me before any deploy. "
 */
export function foldClause(raw: string): string {
  const folded = goTrimSpace(raw.replace(CRLF_ALL, "\n").replace(NEWLINE_OR_TAB_ALL, " "));
  return folded === "" ? "" : `${folded} `;
}

function refuse(reason: FrameConfigReason): ClauseCheckResult {
  return { ok: false, reason, error: new FrameConfigError(reason, "frame_file") };
}

/**
 * Checks an already-folded custom clause, first failure wins (docs/spec/formats.md §2.6): at most
 * 4096 bytes (`frame_file_too_large`); well-formed text, i.e. no lone surrogate
 * (`frame_file_not_utf8`); non-empty (`frame_file_empty`); its own fold and its own sanitised
 * form (`frame_file_unsafe`: a forgeable tag, a Cc/Cf character, non-NFC text, a line break).
 * Errors carry `details.option = "frame_file"`. Never throws.
 *
 * @example checkClause("Use <System-Reminder> blocks. ").ok === false
 */
export function checkClause(folded: string): ClauseCheckResult {
  if (utf8ByteLength(folded) > MAX_CUSTOM_BYTES) return refuse(REASON_FILE_TOO_LARGE);
  if (!isWellFormed(folded)) return refuse(REASON_FILE_NOT_UTF8);
  if (folded === "") return refuse(REASON_FILE_EMPTY);
  if (foldClause(folded) !== folded) return refuse(REASON_FILE_UNSAFE);
  if (sanitize(folded) !== folded) return refuse(REASON_FILE_UNSAFE);
  return { ok: true };
}

/**
 * The clause an instruction puts in the preamble: `""` for open (and for any unknown level), the
 * fixed guarded or strict sentence, or the custom text for level custom.
 *
 * @example clauseOf({ level: "open", custom: "ignored" }) === ""
 */
export function clauseOf(instruction: Instruction): string {
  switch (instruction.level) {
    case LEVEL_GUARDED:
      return GUARDED_CLAUSE;
    case LEVEL_STRICT:
      return STRICT_CLAUSE;
    case LEVEL_CUSTOM:
      return instruction.custom;
    default:
      return "";
  }
}

/**
 * Validates an instruction the way the by-pid map reader and the inbound pipeline do, failing
 * closed: the level is one of the four and `custom` is `""` unless the level is custom (reason
 * `invalid_frame_level`, option `frame`); a custom clause passes {@link checkClause}. Never throws.
 *
 * @example validateInstruction({ level: "strict", custom: "x" }).ok === false
 */
export function validateInstruction(instruction: Instruction): ClauseCheckResult {
  const level: string = instruction.level;
  const named = level === LEVEL_OPEN || level === LEVEL_GUARDED || level === LEVEL_STRICT;
  if (!named && level !== LEVEL_CUSTOM) return invalidLevel();
  if (named) return instruction.custom === "" ? { ok: true } : invalidLevel();
  return checkClause(instruction.custom);
}

function invalidLevel(): ClauseCheckResult {
  return {
    ok: false,
    reason: REASON_INVALID_LEVEL,
    error: new FrameConfigError(REASON_INVALID_LEVEL, "frame"),
  };
}

/**
 * Turns the raw bytes of a `frame_file` (already read by the caller, who owns the path, `stat`
 * and `frame_file_unreadable` checks) into a custom clause: at most 4096 bytes
 * (`frame_file_too_large`), valid UTF-8 checked on the bytes before folding
 * (`frame_file_not_utf8`), then {@link foldClause} and {@link checkClause}. Never throws.
 *
 * @example clauseFromFile(new TextEncoder().encode("Ask me first.\n")) → { ok: true, clause: "Ask me first. " }
 */
export function clauseFromFile(
  bytes: Uint8Array,
): { readonly ok: true; readonly clause: string } | Extract<ClauseCheckResult, { ok: false }> {
  if (bytes.length > MAX_CUSTOM_BYTES) {
    return refuse(REASON_FILE_TOO_LARGE) as Extract<ClauseCheckResult, { ok: false }>;
  }
  const text = decodeStrictUtf8(bytes);
  if (text === null)
    return refuse(REASON_FILE_NOT_UTF8) as Extract<ClauseCheckResult, { ok: false }>;
  const clause = foldClause(text);
  const checked = checkClause(clause);
  return checked.ok ? { ok: true, clause } : checked;
}

/** Decodes well-formed UTF-8, or returns null on the first invalid byte. */
function decodeStrictUtf8(bytes: Uint8Array): string | null {
  if (!isWellFormedUtf8(bytes)) return null;
  return repairUtf8(bytes);
}
