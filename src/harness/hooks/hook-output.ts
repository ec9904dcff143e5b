import { HOOK_LIMITS } from "./hook-limits.ts";

/**
 * Every line a hook prints starts with this, so it cannot pass for the user's text
 * (docs/spec/claude-code.md §7.6).
 */
export const HOOK_LINE_PREFIX = "Brigade: ";

const LINE_BREAK = /[\r\n]/;

/**
 * What a block of lines costs in a hook's output, UTF-16 code units: each line's units plus one
 * for its newline. Claude Code measures hook output in these units (docs/spec/claude-code.md §1.3):
 * an emoji is two, a combining mark one, a CJK character one.
 *
 * @example blockUnits(["Brigade: 😀"]) === 12
 */
export function blockUnits(lines: readonly string[]): number {
  let units = 0;
  for (const line of lines) units += line.length + 1;
  return units;
}

/**
 * A hook's output (docs/spec/claude-code.md §1.3, §7.6): plain lines, at most
 * `HOOK_LIMITS.maxOutputUnits` UTF-16 code units in all ({@link blockUnits}), the unit Claude Code
 * counts when it decides whether the model sees the output whole. Brigade's own lines must start
 * `Brigade: ` and be one line; a block (a polled frame, docs/spec/formats.md §2.9) is added whole
 * or not at all. Because every first line starts `Brigade: `, the output never begins with `{`.
 *
 * @example const out = new HookOutput(); out.line("Brigade: hello"); out.text() === "Brigade: hello\n"
 */
export class HookOutput {
  readonly #lines: string[] = [];
  readonly #limit: number;
  #used = 0;

  constructor(limit: number = HOOK_LIMITS.maxOutputUnits) {
    this.#limit = limit;
  }

  /** UTF-16 code units left in the budget. */
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
    const cost = blockUnits(lines);
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
