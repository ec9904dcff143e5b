/**
 * What a failed real-client test prints: each session's state (an interactive session's screen, a
 * headless run's exit and stderr) and the last texts its model read, so a failure on a CI
 * machine can be read without re-running it.
 */
import { onTestFailed } from "vitest";
import type { ClaudeSession } from "./claude-session.ts";
import { modelTranscript } from "./model-view.ts";

/** The state and the last conversation request of `session`, as one block of text. */
export function sessionReport(name: string, session: ClaudeSession): string {
  const last = session.api.conversation().at(-1);
  let pid = "unknown";
  try {
    pid = String(session.claudePid);
  } catch {
    // A run that never started has no pid; the report still prints the rest.
  }
  return [
    `=== ${name}: Claude Code pid ${pid}, ${session.describe()}`,
    `=== ${name}: ${session.api.requests.length} API requests; the last conversation request read (tail):`,
    last === undefined ? "(none)" : modelTranscript(last.body).slice(-3000),
  ].join("\n");
}

/**
 * Registers, for the running test, a report of every named session when it fails (on stderr).
 * Call it at the start of a test.
 */
export function reportOnFailure(
  sessions: Readonly<Record<string, ClaudeSession | undefined>>,
): void {
  onTestFailed(() => {
    for (const [name, session] of Object.entries(sessions))
      if (session !== undefined) console.error(sessionReport(name, session));
  });
}
