import { createInterface } from "node:readline/promises";

/**
 * The refusal of `brigade doctor --fix` and `brigade uninstall` on any sign of a Claude Code
 * session (`showsClaudeCodeSession`): both change what protects the person's sessions, so the
 * person, not a model's Bash tool, runs them.
 */
export const PERSON_ACT_LINE =
  "this changes what protects your Claude Code sessions: run it in your own terminal, not from a Claude Code session";

/**
 * The person's answer to a yes/no question asked on their terminal: `yes` only for `y` or `yes`
 * (any case); `no` for anything else, an empty line included; `no_terminal` when stdin or stdout
 * is not a terminal, so nothing was asked (a pipe, a script, a Claude Code Bash tool).
 */
export type PersonAnswer = "yes" | "no" | "no_terminal";

/** Asks `question` and waits for the answer; injected so tests answer without a terminal. */
export type AskPerson = (question: string) => Promise<PersonAnswer>;

/**
 * Asks on this process's terminal (docs/46-cli.md "Claude Code's inbound setting"): only when
 * both stdin and stdout are terminals, so a yes typed anywhere but the person's own terminal
 * cannot count. The default answer is no.
 *
 * @example if ((await askOnTerminal("Change it? [y/N] ")) === "yes") change();
 */
export const askOnTerminal: AskPerson = async (question) => {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return "no_terminal";
  const reader = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await reader.question(question);
    return /^y(es)?$/i.test(answer.trim()) ? "yes" : "no";
  } finally {
    reader.close();
  }
};
