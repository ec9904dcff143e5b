import { goTrimSpace } from "../text/index.ts";
import { FrameConfigError, REASON_INVALID_LEVEL } from "./config-error.ts";

/** No clause: provenance, the untrusted-content statement, the reply command, loop damping. */
export const LEVEL_OPEN = "open";
/** Adds: ask the user first before editing settings or sharing secrets. */
export const LEVEL_GUARDED = "guarded";
/** Adds: ask the user first before running commands, editing settings or sharing secrets. */
export const LEVEL_STRICT = "strict";
/** The user's own folded `frame_file` clause; derived by the hook, never typed by a user. */
export const LEVEL_CUSTOM = "custom";

/**
 * The four instruction levels, in order of the table of docs/spec/formats.md §2.6.
 *
 * @example LEVELS.includes("strict") === true
 */
export const LEVELS: readonly ["open", "guarded", "strict", "custom"] = [
  LEVEL_OPEN,
  LEVEL_GUARDED,
  LEVEL_STRICT,
  LEVEL_CUSTOM,
];

/** An instruction level: which clause the frame's preamble carries. */
export type Level = (typeof LEVELS)[number];

/** The shipped default: the frame adds no restriction beyond what Claude itself applies. */
export const DEFAULT_LEVEL: Level = LEVEL_OPEN;

/** Result of {@link parseLevel}. */
export type ParseLevelResult =
  | { readonly ok: true; readonly level: Level }
  | {
      readonly ok: false;
      readonly reason: typeof REASON_INVALID_LEVEL;
      readonly error: FrameConfigError;
    };

/**
 * Reads the `frame` option (docs/spec/formats.md §2.6). Never throws: Go-trimmed `""` is
 * {@link DEFAULT_LEVEL}; exactly `open`, `guarded` or `strict` (case-sensitive) is itself;
 * anything else, `custom` included, fails with reason `invalid_frame_level` and a
 * {@link FrameConfigError} (`details.option = "frame"`) the caller may throw. The value is never
 * echoed.
 *
 * @example parseLevel(" strict\n") → { ok: true, level: "strict" }; parseLevel("Strict").ok === false
 */
export function parseLevel(raw: string): ParseLevelResult {
  const value = goTrimSpace(raw);
  if (value === "") return { ok: true, level: DEFAULT_LEVEL };
  if (value === LEVEL_OPEN || value === LEVEL_GUARDED || value === LEVEL_STRICT) {
    return { ok: true, level: value };
  }
  return {
    ok: false,
    reason: REASON_INVALID_LEVEL,
    error: new FrameConfigError(REASON_INVALID_LEVEL, "frame"),
  };
}
