import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The three hook events Brigade registers (docs/spec/claude-code.md §1.1). */
export type HookEvent = "SessionStart" | "UserPromptSubmit" | "SessionEnd";

/** One exec-form command hook from `hooks/hooks.json`. */
export interface CommandHook {
  readonly command: string;
  readonly args: readonly string[];
  /** Declared timeout, seconds, if any. */
  readonly timeout: number | undefined;
}

/** How one hook command ended. */
export interface HookRun {
  readonly hook: CommandHook;
  /** `command` and `args` after `${CLAUDE_PLUGIN_ROOT}` substitution. */
  readonly argv: readonly string[];
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** The hook's stdin document. */
  readonly stdin: Record<string, unknown>;
  /** The environment it ran with. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Default per-command timeouts, seconds, when a hook declares none (docs/spec/claude-code.md §0
 * item 3).
 */
export const DEFAULT_HOOK_TIMEOUT_S: Readonly<Record<HookEvent, number>> = {
  SessionStart: 600,
  UserPromptSubmit: 30,
  SessionEnd: 1.5,
};

/** The shared budget of every SessionEnd hook together, ms (docs/spec/claude-code.md §1.4). */
export const SESSION_END_BUDGET_MS = 1_500;

// biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text Claude Code substitutes
const PLUGIN_ROOT_VARIABLE = "${CLAUDE_PLUGIN_ROOT}";

/**
 * Reads the exec-form command hooks registered for `event` in `<pluginRoot>/hooks/hooks.json`,
 * in file order, identical handlers once (Claude Code deduplicates them). Shell-form hooks (no
 * `args`) are run the same way with no arguments: Brigade never uses them.
 */
export async function loadCommandHooks(
  pluginRoot: string,
  event: HookEvent,
): Promise<CommandHook[]> {
  const text = await readFile(join(pluginRoot, "hooks", "hooks.json"), "utf8");
  const document = JSON.parse(text) as {
    hooks?: Record<
      string,
      { hooks?: { type?: string; command?: string; args?: unknown; timeout?: unknown }[] }[]
    >;
  };
  const found: CommandHook[] = [];
  const seen = new Set<string>();
  for (const group of document.hooks?.[event] ?? []) {
    for (const hook of group.hooks ?? []) {
      if (hook.type !== "command" || typeof hook.command !== "string") continue;
      const args = Array.isArray(hook.args) ? hook.args.map(String) : [];
      const key = JSON.stringify([hook.command, args]);
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({
        command: hook.command,
        args,
        timeout: typeof hook.timeout === "number" ? hook.timeout : undefined,
      });
    }
  }
  return found;
}

/**
 * Replaces every `${CLAUDE_PLUGIN_ROOT}` in `text` as plain text (exec form,
 * docs/spec/claude-code.md §1.1).
 */
export function substitutePluginRoot(text: string, pluginRoot: string): string {
  return text.split(PLUGIN_ROOT_VARIABLE).join(pluginRoot);
}

/** Runs one command with `stdin` as its JSON document; kills it at `timeoutMs`. */
export function runCommandHook(
  hook: CommandHook,
  pluginRoot: string,
  stdin: Record<string, unknown>,
  env: Readonly<Record<string, string>>,
  cwd: string,
  timeoutMs: number,
): Promise<HookRun> {
  const argv = [hook.command, ...hook.args].map((part) => substitutePluginRoot(part, pluginRoot));
  return new Promise((resolve) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd,
      env,
      shell: false,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let done = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const end = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ hook, argv, exitCode, signal, timedOut, stdout, stderr, stdin, env });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
      // A grandchild may still hold stdout open: do not wait for it past the timeout.
      end(null, "SIGKILL");
    }, timeoutMs);
    child.on("error", () => end(null, null));
    child.on("close", (code, signal) => end(code, signal));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(stdin));
  });
}
