import { isClaudePid } from "../harness/claude-code/index.ts";
import { runWatcher } from "../harness/watcher/index.ts";
import { CliUsageError } from "./cli-io.ts";
import type { CommandRunner } from "./command-table.ts";

const WATCH_HELP = `usage: brigade watch --claude-pid <pid>

The message watcher of one Claude Code session: it receives the team's messages for the session and
posts each, framed, to Claude Code's inbox socket. The plugin's hooks start and stop it; it is never
run by hand (it needs the session's CLAUDE_PID and the map the SessionStart hook wrote).
See whether a session's watcher runs with "brigade whoami" (in the session) or "brigade doctor".
`;

/**
 * `brigade watch --claude-pid <pid>`: the detached watcher of one Claude Code session
 * (docs/41-watcher.md). Started only by `ensureWatcher` from a hook, never by a human: it needs
 * `CLAUDE_PID` equal to `--claude-pid` and the by-pid map of that pid. SIGTERM and SIGINT stop it
 * (the session stays open). Exit status: 0 after a normal stop (Claude Code gone, session changed,
 * signal, another watcher already running); 4, 5, 10 or 11 after a fatal watch error; 11 without
 * a session; 2 for bad arguments.
 *
 * @example brigade watch --claude-pid 4242
 */
export const runWatch: CommandRunner = async (argv, io) => {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(WATCH_HELP);
    return 0;
  }
  if (argv.length !== 2 || argv[0] !== "--claude-pid") {
    throw new CliUsageError(
      "usage: brigade watch --claude-pid <pid> (started by the plugin's hooks)",
    );
  }
  const claudePid = argv[1] as string;
  if (!isClaudePid(claudePid)) throw new CliUsageError("--claude-pid must be a decimal process id");
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  try {
    const exit = await runWatcher({
      claudePid,
      env: io.env,
      signal: controller.signal,
      ...(process.argv[1] === undefined ? {} : { entryScript: process.argv[1] }),
    });
    if (exit.reason === "not_in_session") {
      io.stderr("brigade watch: no Brigade session for this Claude Code process\n");
    }
    return exit.status;
  } finally {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
};
