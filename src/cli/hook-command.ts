import { realpathSync } from "node:fs";
import {
  defaultHookServices,
  HOOK_EVENTS,
  type HookContext,
  type HookEvent,
  runHookEvent,
} from "../harness/hooks/index.ts";
import { currentUid } from "../local-files/index.ts";
import type { CliIo } from "./cli-io.ts";
import type { CommandRunner } from "./command-table.ts";

function entryScript(): string {
  const script = process.argv[1];
  if (script === undefined || script === "") return "";
  try {
    return realpathSync(script);
  } catch {
    return "";
  }
}

const HOOK_HELP = `usage: brigade hook session-start|prompt|post-tool-use|session-end   (JSON document on stdin)

Claude Code runs these from the plugin's hooks.json; they are never run by hand. session-start
registers the session with its team and starts the watcher, prompt keeps them going and reports
held messages, post-tool-use delivers messages between tool calls where no watcher does,
session-end stops the watcher and closes the session. A hook always exits 0 and prints at most a
few "Brigade: " lines for the model.
`;

/**
 * `brigade hook session-start|prompt|post-tool-use|session-end` (docs/spec/claude-code.md §1,
 * §7.3), started by Claude Code from `hooks.json` with one JSON document on stdin. Prints plain
 * `Brigade: ` lines (at most 10,000 code points; PostToolUse alone answers in Claude Code's JSON
 * hook form) and **always exits 0**, even for an unknown event (one
 * line on stderr, Claude Code's debug log). `overrides` replace parts of the context in tests.
 *
 * @example await runHook(["prompt"], processIo()) === 0
 */
export async function runHookWith(
  argv: string[],
  io: CliIo,
  overrides: Partial<HookContext> = {},
): Promise<number> {
  const event = argv[0];
  if (argv.length === 1 && (event === "--help" || event === "-h")) {
    io.stdout(HOOK_HELP);
    return 0;
  }
  if (argv.length !== 1 || !(HOOK_EVENTS as readonly string[]).includes(event ?? "")) {
    io.stderr("brigade hook: usage: brigade hook session-start|prompt|post-tool-use|session-end\n");
    return 0;
  }
  const ctx: HookContext = {
    env: io.env,
    uid: currentUid(),
    now: Date.now,
    entryScript: overrides.entryScript ?? entryScript(),
    services: defaultHookServices(),
    log: (line) => io.stderr(line),
    ...overrides,
  };
  try {
    const text = await runHookEvent(event as HookEvent, io.stdin, ctx);
    if (text !== "") io.stdout(text);
  } catch {
    io.stderr("brigade hook: internal error\n");
  }
  return 0;
}

/**
 * The `hook` command of the command table; see {@link runHookWith}.
 *
 * @example await runHook(["session-start"], io)
 */
export const runHook: CommandRunner = (argv, io) => runHookWith(argv, io);
