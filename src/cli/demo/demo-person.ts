import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  HOOK_OUTPUT_WHOLE_UNITS,
  promptHookSuccessEntry,
} from "../../harness/claude-code/prompt-hook-record.ts";
import type { CliIo } from "../cli-io.ts";
import { runHookWith } from "../hook-command.ts";
import { runSend } from "../send-command.ts";
import { runTeamCommand } from "../team-command.ts";

/** Claude Code's SessionEnd reason when the person quits (docs/spec/claude-code.md §0.2). */
const SESSION_END_REASON = "prompt_input_exit";

/** What one in-process command printed, and its exit status. */
export interface DemoRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A simulated Claude Code session of a {@link DemoPerson}: a stand-in `CLAUDE_PID`, no socket. */
export interface DemoSession {
  readonly claudePid: string;
  readonly nativeId: string;
  /** Claude Code's session title, which names the Brigade session. */
  readonly title: string;
}

function ioFor(
  env: Readonly<Record<string, string>>,
  input: string,
  out: string[],
  err: string[],
): CliIo {
  return {
    stdin: (async function* () {
      if (input !== "") yield new TextEncoder().encode(input);
    })(),
    stdout: (text) => {
      out.push(text);
    },
    stderr: (text) => {
      err.push(text);
    },
    env,
  };
}

/**
 * One simulated teammate of `brigade demo`: a home folder of their own (HOME and the XDG folders
 * below it, so their configuration, consent and session state are theirs) and a clone of the team's
 * repository. Every act goes through the real commands, in process: `brigade team …` as the person
 * in a terminal, and for a session the plugin's hooks and `brigade send` with the session's
 * `CLAUDE_PID` — only Claude Code itself is missing, so a session has no inbox socket and its
 * messages arrive at its next prompt, printed by the prompt hook (docs/spec/claude-code.md §7.3).
 */
export class DemoPerson {
  readonly name: string;
  readonly home: string;
  readonly checkout: string;
  readonly #env: Readonly<Record<string, string>>;

  /** Makes `<root>/<name>/home` and `<root>/<name>/<repository>` (a git work tree: `.git/`). */
  constructor(root: string, name: string, repository: string) {
    this.name = name;
    this.home = join(root, name, "home");
    this.checkout = join(root, name, repository);
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    mkdirSync(join(this.checkout, ".git"), { recursive: true });
    this.#env = {
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, ".config"),
      XDG_STATE_HOME: join(this.home, ".local", "state"),
      CLAUDE_CONFIG_DIR: join(this.home, ".claude"),
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    };
  }

  /** `brigade team <argv>` in the person's own terminal, in their clone. */
  async team(argv: string[]): Promise<DemoRun> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runTeamCommand(argv, ioFor(this.#env, "", out, err), {
      cwd: this.checkout,
    });
    return { status, stdout: out.join(""), stderr: err.join("") };
  }

  /** A Claude Code hook of `session`, as hooks.json runs it: the event's document on stdin. */
  async hook(
    session: DemoSession,
    event: "session-start" | "prompt" | "session-end",
  ): Promise<DemoRun> {
    const eventName = {
      "session-start": "SessionStart",
      prompt: "UserPromptSubmit",
      "session-end": "SessionEnd",
    }[event];
    const transcript = this.#transcriptOf(session);
    const document = {
      session_id: session.nativeId,
      cwd: this.checkout,
      hook_event_name: eventName,
      transcript_path: transcript,
      ...(event === "session-start" ? { source: "startup", session_title: session.title } : {}),
      ...(event === "prompt" ? { permission_mode: "default", prompt: "" } : {}),
      ...(event === "session-end" ? { reason: SESSION_END_REASON } : {}),
    };
    const out: string[] = [];
    const err: string[] = [];
    const status = await runHookWith(
      [event],
      ioFor(this.#sessionEnv(session), JSON.stringify(document), out, err),
      { log: () => {} },
    );
    const stdout = out.join("");
    if (event === "prompt" && status === 0) recordPromptHookOutput(transcript, stdout);
    return { status, stdout, stderr: err.join("") };
  }

  /**
   * The session's conversation record, as Claude Code keeps one: the hooks read in it what the
   * model was shown, and a message is acknowledged only once it is there (docs/42-hooks.md).
   */
  #transcriptOf(session: DemoSession): string {
    const folder = join(this.home, ".claude", "projects", "demo");
    const path = join(folder, `${session.nativeId}.jsonl`);
    if (!existsSync(path)) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(path, "", { mode: 0o600 });
    }
    return path;
  }

  /** `brigade send <argv>` with `body` on stdin, run by the model of `session` in its Bash tool. */
  async send(session: DemoSession, argv: string[], body: string): Promise<DemoRun> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runSend(argv, ioFor(this.#sessionEnv(session), body, out, err));
    return { status, stdout: out.join(""), stderr: err.join("") };
  }

  #sessionEnv(session: DemoSession): Readonly<Record<string, string>> {
    return {
      ...this.#env,
      CLAUDE_PID: session.claudePid,
      CLAUDE_CODE_SESSION_ID: session.nativeId,
    };
  }
}

/**
 * Appends what Claude Code 2.1.334 writes after a UserPromptSubmit hook that exited 0 with plain
 * stdout (docs/spec/claude-code.md §1.3): a `hook_success` attachment whose `content` is what the
 * model read, the trimmed stdout. Nothing for an empty output, and nothing for one over the whole
 * limit (the model would read a preview, which never shows a whole frame).
 */
function recordPromptHookOutput(transcript: string, stdout: string): void {
  const text = stdout.trim();
  if (text === "" || text.length > HOOK_OUTPUT_WHOLE_UNITS) return;
  appendFileSync(transcript, `${JSON.stringify(promptHookSuccessEntry(text, stdout))}\n`);
}
