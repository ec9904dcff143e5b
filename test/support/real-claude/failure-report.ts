/**
 * What a failed real-client test prints: each session's screen and the last texts its model
 * read, so a failure on a CI machine can be read without re-running it.
 */
import { onTestFailed } from "vitest";
import { modelTranscript } from "./model-view.ts";
import type { RealClaudeSession } from "./real-session.ts";

/** The screen and the last conversation request of `session`, as one block of text. */
export function sessionReport(name: string, session: RealClaudeSession): string {
  const last = session.api.conversation().at(-1);
  return [
    `=== ${name}: Claude Code pid ${session.claudePid}, screen:`,
    session.claude.pane(),
    `=== ${name}: ${session.api.requests.length} API requests; the last conversation request read (tail):`,
    last === undefined ? "(none)" : modelTranscript(last.body).slice(-3000),
  ].join("\n");
}

/**
 * Registers, for the running test, a report of every named session when it fails (on stderr).
 * Call it at the start of a test.
 */
export function reportOnFailure(
  sessions: Readonly<Record<string, RealClaudeSession | undefined>>,
): void {
  onTestFailed(() => {
    for (const [name, session] of Object.entries(sessions))
      if (session !== undefined) console.error(sessionReport(name, session));
  });
}
