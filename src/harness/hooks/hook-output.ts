import { HOOK_LIMITS } from "./hook-limits.ts";

/**
 * Every line a hook prints starts with this, so it cannot pass for the user's text
 * (docs/spec/claude-code.md §7.6).
 */
export const HOOK_LINE_PREFIX = "Brigade: ";

const LINE_BREAK = /[\r\n]/;

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    // a surrogate pair is one code point: count its high half only
    if (c < 0xdc00 || c > 0xdfff) n += 1;
  }
  return n;
}

/**
 * A hook's stdout (docs/spec/claude-code.md §1.3, §7.6): plain lines, at most 10,000 code points in
 * all (each line's code points + 1 for its newline). Brigade's own lines must start `Brigade: ` and
 * be one line; a block (a polled frame, docs/spec/formats.md §2.9) is added whole or not at all.
 * Because every first line starts `Brigade: `, the output never begins with `{`.
 *
 * @example const out = new HookOutput(); out.line("Brigade: hello"); out.text() === "Brigade: hello\n"
 */
export class HookOutput {
  readonly #lines: string[] = [];
  readonly #limit: number;
  #used = 0;

  constructor(limit: number = HOOK_LIMITS.maxOutputCodePoints) {
    this.#limit = limit;
  }

  /** Code points left in the budget. */
  get remaining(): number {
    return this.#limit - this.#used;
  }

  /** True when nothing was printed. */
  get empty(): boolean {
    return this.#lines.length === 0;
  }

  /**
   * Adds one of Brigade's own lines if it fits. Returns false (adding nothing) when it does not.
   *
   * @throws TypeError when the line does not start `Brigade: ` or holds a line break (a caller bug).
   */
  line(text: string): boolean {
    if (!text.startsWith(HOOK_LINE_PREFIX) || LINE_BREAK.test(text)) {
      throw new TypeError("a hook line must be one line starting with the Brigade prefix");
    }
    return this.block([text]);
  }

  /**
   * Adds several lines as one unit — all of them, or none when the budget would be exceeded. The
   * first line must start `Brigade: `; later lines are text already made safe by the caller (a
   * frame built from sanitised fields).
   *
   * @throws TypeError when the first line does not start `Brigade: ` (a caller bug).
   */
  block(lines: readonly string[]): boolean {
    const first = lines[0];
    if (first === undefined) return true;
    if (!first.startsWith(HOOK_LINE_PREFIX)) {
      throw new TypeError("a hook block must start with the Brigade prefix");
    }
    let cost = 0;
    for (const l of lines) cost += codePoints(l) + 1;
    if (this.#used + cost > this.#limit) return false;
    this.#used += cost;
    this.#lines.push(...lines);
    return true;
  }

  /** The whole stdout: each line followed by `\n`; `""` when nothing was added. */
  text(): string {
    return this.#lines.length === 0 ? "" : `${this.#lines.join("\n")}\n`;
  }
}
