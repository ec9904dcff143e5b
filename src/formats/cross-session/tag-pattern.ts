import {
  CLOSE_SET,
  DASH_CLASS,
  INVIS_SET,
  NAME_SET,
  OPEN_SET,
  SLASH_SET,
} from "./character-sets.ts";

/**
 * Numbers capture groups while a pattern source is assembled, so that every possessive run gets its
 * own group and back-reference.
 */
export class GroupCounter {
  private next = 1;

  /**
   * `RUN(k, C)`: the longest run of class `C`, consumed with no backtracking (a lookahead captures
   * it, the back-reference takes it). `classBody` is the text inside `[…]`.
   */
  run(classBody: string): string {
    const k = this.next++;
    return `(?=([${classBody}]*))(?:\\${k})`;
  }
}

/**
 * Regex source of the single-tag pattern of docs/spec/cross-session.md §6.2 for tag `tag`
 * (lower-case `[a-z0-9_-]`). `closeOnly` matches closing tags only; otherwise openers and closers.
 * Flags: `giu`. The match is the one OPEN character to rewrite. Example:
 * `singleTagPatternSource("cited", true)`.
 */
export function singleTagPatternSource(tag: string, closeOnly: boolean): string {
  const groups = new GroupCounter();
  const head = closeOnly
    ? `${groups.run(`^${NAME_SET}${OPEN_SET}${CLOSE_SET}${SLASH_SET}`)}[${SLASH_SET}]${groups.run(`^${NAME_SET}${OPEN_SET}${CLOSE_SET}`)}`
    : groups.run(`^${NAME_SET}${OPEN_SET}${CLOSE_SET}`);
  let spell = "";
  for (const [index, ch] of [...tag].entries()) {
    if (index > 0) spell += groups.run(INVIS_SET);
    spell += ch === "-" || ch === "_" ? DASH_CLASS : ch;
  }
  return `[${OPEN_SET}](?!\\\\)(?=${head}(?:${spell})(?:[^${NAME_SET}]|$))`;
}
