import { randomUUID } from "node:crypto";

/**
 * Hook output up to this many UTF-16 code units reaches the model whole; a longer one only as a
 * `<persisted-output>` preview of its start (measured on 2.1.334 and 2.1.336,
 * docs/spec/claude-code.md §1.3).
 */
export const HOOK_OUTPUT_WHOLE_UNITS = 10_000;

/**
 * The transcript entry Claude Code writes after a UserPromptSubmit hook that exited 0 with plain
 * stdout (docs/spec/claude-code.md §1.3): a `hook_success` attachment whose `content` is what the
 * model read (`shown`: the trimmed stdout, or its preview) and whose `stdout` is the raw output.
 * The hooks confirm a shown frame by finding it whole in such a `content`
 * (transcript-shown-frames.ts); a stand-in of Claude Code (`brigade demo`, the tests' host) writes
 * this entry to play its part.
 *
 * @example JSON.stringify(promptHookSuccessEntry("Brigade: …", "Brigade: …\n"))
 */
export function promptHookSuccessEntry(shown: string, stdout: string): Record<string, unknown> {
  return {
    type: "attachment",
    attachment: {
      type: "hook_success",
      hookName: "UserPromptSubmit",
      toolUseID: randomUUID(),
      hookEvent: "UserPromptSubmit",
      content: shown,
      stdout,
      stderr: "",
      exitCode: 0,
      command: "brigade hook prompt",
      durationMs: 40,
    },
  };
}
