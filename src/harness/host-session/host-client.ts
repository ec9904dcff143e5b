import type { HostSessionRequest } from "./connect-host-session.ts";

/** Longest hook stdin document a host hook reads, bytes; a longer one is read as no document. */
export const MAX_HOST_HOOK_INPUT_BYTES = 1_048_576;

/** How a host starts Brigade: this Node and this checkout's CLI entry, both absolute paths. */
export interface BrigadeCommand {
  readonly node: string;
  readonly cli: string;
}

/** The outcome of installing or uninstalling a client: lines for the person, or a refusal. */
export type ClientInstallOutcome =
  | { readonly ok: true; readonly lines: readonly string[] }
  | {
      readonly ok: false;
      /** A stable code (docs/errors.md "Host clients"). */
      readonly code: string;
      /** One line for the person: a path of theirs may be in it, never a value of a file. */
      readonly line: string;
    };

/** What a host hook run reads besides its stdin (tests replace parts). */
export interface HostHookDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly uid: number;
  readonly now: () => number;
  /** The pids above the hook, nearest first (`processAncestors(process.pid)` by default). */
  readonly ancestors?: readonly number[];
  /** Replaces the session start's adapter and team lookups in tests. */
  readonly connect?: Pick<HostSessionRequest, "openAdapter" | "resolveTeam">;
  /** One line for the host's debug output (a hook's stderr). */
  readonly log: (line: string) => void;
}

/**
 * One coding-agent client Brigade reaches through its hooks and `brigade mcp` (docs/49-hosts.md):
 * each client folder under `src/harness/` exports one, and `HOST_CLIENTS` lists them.
 */
export interface HostClient {
  /** The word in `brigade install <name>` and `brigade host-hook <name> <event>`. */
  readonly name: string;
  /** The client's own name, for people. */
  readonly title: string;
  /** The events `brigade host-hook <name>` takes. */
  readonly hookEvents: readonly string[];
  /** Runs one hook; returns what to print on stdout. Never throws. */
  runHook(event: string, stdin: string, deps: HostHookDeps): Promise<string>;
  /** Writes what the client needs to start Brigade (its own files, or recorded changes). */
  install(
    env: Readonly<Record<string, string | undefined>>,
    command: BrigadeCommand,
  ): ClientInstallOutcome;
  /** Puts back everything `install` wrote or changed. */
  uninstall(env: Readonly<Record<string, string | undefined>>): ClientInstallOutcome;
  /** Whether `env` shows a session of this client (its hooks and tools run there): the person's
   * own terminal is where a client is installed, never a model's shell. */
  insideSession(env: Readonly<Record<string, string | undefined>>): boolean;
}
