import type { ByPidMap } from "../state/index.ts";
import type { HostSessionRequest } from "./connect-host-session.ts";
import type { DoorContext, DoorOpening, DoorSession } from "./delivery-door.ts";
import type { ProcessSignature } from "./process-signature.ts";

/** Longest hook stdin document a host hook reads, bytes; a longer one is read as no document. */
export const MAX_HOST_HOOK_INPUT_BYTES = 1_048_576;

/** How a host starts Brigade: this Node and this checkout's CLI entry, both absolute paths. */
export interface BrigadeCommand {
  readonly node: string;
  readonly cli: string;
}

/**
 * Why `brigade install <client>` or `brigade uninstall <client>` wrote or removed nothing
 * (docs/errors.md): `no_home` (HOME is not an absolute folder), `extension_foreign` (a folder or
 * file at Brigade's place that Brigade did not write), `write_failed` (a path that cannot be
 * written or removed); for a client whose own configuration file Brigade edits (Codex):
 * `config_refused` (the file cannot safely take or give back Brigade's block; the line names the
 * reason), `block_changed` (Brigade's block was edited since it was written), `no_config_dir`
 * (Brigade's configuration folder, where the record of the change is kept, cannot be found),
 * `record_unreadable`, `record_unwritable` (that record).
 *
 * @example CLIENT_INSTALL_CODES.includes("extension_foreign") === true
 */
export const CLIENT_INSTALL_CODES = [
  "no_home",
  "extension_foreign",
  "write_failed",
  "config_refused",
  "block_changed",
  "no_config_dir",
  "record_unreadable",
  "record_unwritable",
] as const;

/** One of {@link CLIENT_INSTALL_CODES}. */
export type ClientInstallCode = (typeof CLIENT_INSTALL_CODES)[number];

/** The outcome of installing or uninstalling a client: lines for the person, or a refusal. */
export type ClientInstallOutcome =
  | { readonly ok: true; readonly lines: readonly string[] }
  | {
      readonly ok: false;
      readonly code: ClientInstallCode;
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
  /**
   * Starts the push lane of a session the start just bound (`ensurePushLane` by default) and
   * answers its outcome word; tests replace it.
   */
  readonly startPushLane?: (map: ByPidMap) => Promise<string>;
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
  /** The `.env` files (relative to a folder) the client loads into the environment of its hooks
   * and MCP servers from the first folder up from its own that has one; `[]` when none. */
  readonly dotenvFiles: readonly string[];
  /** Whether `env` shows a session of this client (its hooks and tools run there): the person's
   * own terminal is where a client is installed, never a model's shell. */
  insideSession(env: Readonly<Record<string, string | undefined>>): boolean;
  /** What tells the client's own process (measured, in its facts): a command with one among its
   * ancestors runs under the client, its shell tool included (`agentAncestor`). */
  readonly processSignature: ProcessSignature;
  /**
   * Opens the client's door into one live session for the shared push lane (docs/49-hosts.md,
   * "The push lane"), or says why this session has only the pull lane. Absent: the client has
   * no door, every session of it has the pull lane. Never throws.
   */
  openDoor?(session: DoorSession, ctx: DoorContext): Promise<DoorOpening>;
}
