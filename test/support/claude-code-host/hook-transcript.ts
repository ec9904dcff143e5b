/**
 * What Claude Code 2.1.334 shows the model of a hook's output or a tool's result, and the
 * transcript lines it writes for them (docs/spec/claude-code.md §1.3, §3.4; measured on the real
 * client): an output of at most 10,000 UTF-16 code units (a hook) or 30,000 (the Bash tool) is
 * shown whole; a longer one is saved to a file and the model reads only a preview of its first
 * 2 KB inside `<persisted-output>`.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import {
  HOOK_OUTPUT_WHOLE_UNITS,
  promptHookSuccessEntry,
} from "../../../src/harness/claude-code/prompt-hook-record.ts";

/**
 * Hook output beyond this many UTF-16 code units reaches the model only as a preview
 * (docs/spec/claude-code.md §1.3).
 */
export const HOOK_OUTPUT_PREVIEW_ABOVE = HOOK_OUTPUT_WHOLE_UNITS;

/** A Bash tool result beyond this many UTF-16 code units reaches the model only as a preview. */
export const TOOL_RESULT_PREVIEW_ABOVE = 30_000;

/** Length of that preview, characters (Claude Code says "first 2KB"; ours is an approximation). */
export const HOOK_OUTPUT_PREVIEW_CHARS = 1_950;

/**
 * What the model reads of `text` under a limit of `above` UTF-16 code units: the text itself, or
 * Claude Code's `<persisted-output>` preview of its start.
 *
 * @example shownAs("x".repeat(10_001)).startsWith("<persisted-output>")
 */
export function shownAs(text: string, above: number = HOOK_OUTPUT_PREVIEW_ABOVE): string {
  if (text.length <= above) return text;
  const kb = (Buffer.byteLength(text) / 1024).toFixed(1);
  return (
    `<persisted-output>\nOutput too large (${kb}KB). Full output saved to: /tmp/cc-host/output.txt\n\n` +
    `Preview (first 2KB):\n${text.slice(0, HOOK_OUTPUT_PREVIEW_CHARS)}\n...\n</persisted-output>`
  );
}

/**
 * Appends what Claude Code writes after a UserPromptSubmit hook that exited 0 with plain stdout:
 * a `hook_success` attachment whose `content` is what the model read (the trimmed stdout, or its
 * preview) and whose `stdout` is the raw output.
 */
export function recordPromptHookOutput(transcriptPath: string, stdout: string): void {
  const text = stdout.trim();
  if (text === "") return;
  append(transcriptPath, promptHookSuccessEntry(shownAs(text), stdout));
}

/**
 * Appends what Claude Code writes after a PostToolUse hook answered in the JSON form: a
 * `hook_success` attachment with an empty `content` and the raw `stdout`, then a
 * `hook_additional_context` attachment whose `content` holds what the model read of the
 * `additionalContext` (whole, or its preview). Nothing for an empty or non-JSON stdout.
 */
export function recordPostToolUseOutput(transcriptPath: string, stdout: string): void {
  let context: unknown;
  try {
    context = (JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: unknown } })
      .hookSpecificOutput?.additionalContext;
  } catch {
    return;
  }
  if (typeof context !== "string" || context === "") return;
  const toolUseID = `toolu_${randomUUID()}`;
  append(transcriptPath, {
    type: "attachment",
    attachment: {
      type: "hook_success",
      hookName: "PostToolUse:Bash",
      toolUseID,
      hookEvent: "PostToolUse",
      content: "",
      stdout,
      stderr: "",
      exitCode: 0,
      command: "brigade hook post-tool-use",
      durationMs: 40,
    },
  });
  append(transcriptPath, {
    type: "attachment",
    attachment: {
      type: "hook_additional_context",
      content: [shownAs(context)],
      hookName: "PostToolUse:Bash",
      toolUseID,
      hookEvent: "PostToolUse",
    },
  });
}

/**
 * Appends the `user` entry Claude Code writes for a Bash tool's result: a `tool_result` block
 * whose `content` is what the model read (the output without its trailing newlines, or its
 * preview past 30,000 units).
 */
export function recordToolResult(transcriptPath: string, output: string): void {
  append(transcriptPath, {
    parentUuid: null,
    isSidechain: false,
    type: "user",
    message: {
      role: "user",
      content: [
        {
          tool_use_id: `toolu_${randomUUID()}`,
          type: "tool_result",
          content: shownAs(output.replace(/\n+$/, ""), TOOL_RESULT_PREVIEW_ABOVE),
          is_error: false,
        },
      ],
    },
    uuid: randomUUID(),
  });
}

function append(path: string, entry: Record<string, unknown>): void {
  const line = JSON.stringify({
    ...entry,
    timestamp: new Date().toISOString(),
    version: "2.1.334",
  });
  appendFileSync(path, `${line}\n`, { mode: 0o600 });
}
