/**
 * The Claude Code versions the plugin was verified on, and the oldest it can work with
 * (docs/spec/claude-code.md §0 and its minimum versions: the inbox socket needs 2.1.224 on macOS
 * and Linux). `brigade doctor` compares the installed `claude --version` with them; a test keeps
 * this list equal to the spec's "Verified on" line.
 *
 * @example CLAUDE_CODE_VERIFIED.includes("2.1.334") === true
 */
export const CLAUDE_CODE_VERIFIED: readonly string[] = ["2.1.328", "2.1.334"];

/** The oldest Claude Code with cross-session messaging and the inbox socket (macOS, Linux). */
export const CLAUDE_CODE_MINIMUM = "2.1.224";

/**
 * Compares two dotted numeric versions (`2.1.334`); missing parts count as 0. Negative when `a`
 * is older, 0 when equal, positive when newer.
 *
 * @example compareVersions("2.1.224", "2.1.334") < 0
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Number.isNaN(d) ? 0 : d;
  }
  return 0;
}
