import { matchLine, type RawEntry } from "./manifest-line.ts";

/** Where a trailing manifest block was found in a text without trailing LFs. */
export interface TrailingBlock {
  /** The block's entries in text order, still escaped; empty when there is no block. */
  readonly entries: readonly RawEntry[];
  /** The prose before the block, minus at most one empty separator line; `core` when no block. */
  readonly prose: string;
}

/**
 * Drops every trailing LF (LF only: CR and spaces stay).
 *
 * @example stripTrailingLf("a\r\n\n") === "a\r"
 */
export function stripTrailingLf(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Finds the maximal run of trailing manifest lines of `core` (docs/spec/formats.md §4.3 step
 * 3, §4.4 steps 2–4), walking lines from the end so a long prose is never split. The prose is the
 * lines before the run, minus one directly preceding empty line (a line of spaces is not empty).
 *
 * @example findTrailingBlock('x\n\n[llmsafespaces:attachment path="/p" name="n"]').prose === "x"
 */
export function findTrailingBlock(core: string): TrailingBlock {
  const entries: RawEntry[] = [];
  let lineEnd = core.length;
  let runStart = -1;
  while (lineEnd >= 0) {
    const newline = lineEnd === 0 ? -1 : core.lastIndexOf("\n", lineEnd - 1);
    const entry = matchLine(core.slice(newline + 1, lineEnd));
    if (entry === null) break;
    entries.push(entry);
    runStart = newline + 1;
    if (newline < 0) break;
    lineEnd = newline;
  }
  if (runStart < 0) return { entries, prose: core };
  entries.reverse();
  if (runStart === 0) return { entries, prose: "" };
  // `before` is every line above the run; its last line is empty when it is "" or ends in LF.
  const before = core.slice(0, runStart - 1);
  const prose = before === "" || before.endsWith("\n") ? before.slice(0, -1) : before;
  return { entries, prose };
}
