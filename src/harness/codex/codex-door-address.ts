import { readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import { CODEX_CONTROL_SOCKET, CODEX_DEFAULT_LISTEN } from "./codex-facts.ts";

/**
 * Why a Codex session has no door (docs/errors.md) and stays on the pull lane (docs/49-codex.md "Which sessions
 * Brigade reaches"): `not_codex` (the process is not a Codex executable), `in_process` (`codex
 * exec` or any other Codex that runs its thread inside itself: no socket), `stdio` (an app-server
 * whose only client is the program that started it over stdio, an editor extension's), `websocket`
 * (an app-server on a TCP WebSocket: **[ours]** not used, a loopback port is open to every local
 * user unless its token is set up, and the token is not Brigade's), `no_listener` (`--listen
 * off`), `socket_foreign` (the socket is missing, not a socket, or not the person's own),
 * `unreadable` (the process's arguments cannot be read: gone, or not ours).
 *
 * @example CODEX_NO_DOOR_REASONS.includes("in_process") === true
 */
export const CODEX_NO_DOOR_REASONS = [
  "not_codex",
  "in_process",
  "stdio",
  "websocket",
  "no_listener",
  "socket_foreign",
  "unreadable",
] as const;

/** One of {@link CODEX_NO_DOOR_REASONS}. */
export type CodexNoDoorReason = (typeof CODEX_NO_DOOR_REASONS)[number];

/** Where a Codex session's door is, or why it has none. */
export type CodexDoorAddress =
  | { readonly ok: true; readonly socketPath: string }
  | { readonly ok: false; readonly reason: CodexNoDoorReason };

/**
 * Codex's options before a subcommand that take a value as the next word (0.171.0 `codex
 * --help`): the word after one is no subcommand.
 */
const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-c",
  "--config",
  "--enable",
  "--disable",
  "-p",
  "--profile",
  "-C",
  "--cd",
  "-m",
  "--model",
  "-s",
  "--sandbox",
  "-a",
  "--ask-for-approval",
  "-i",
  "--image",
  "--local-provider",
  "--remote",
  "--remote-auth-token-env",
  "--add-dir",
]);

/** The first word of `args` that is neither an option nor an option's value. */
function subcommandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/** The value of `--listen` in `argv` (`--listen X` or `--listen=X`), or `undefined`. */
function listenOf(argv: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--listen") value = argv[i + 1];
    else if (arg.startsWith("--listen=")) value = arg.slice("--listen=".length);
  }
  return value;
}

/**
 * Where the process with arguments `argv` (the Codex that serves a thread: the parent of its
 * hooks) accepts app-server clients, for a person whose Codex home is `codexHome`. Only `codex
 * app-server --listen unix://[PATH]` has a door: `unix://` alone is Codex's own control socket
 * (`<codexHome>/app-server-control/app-server-control.sock`, what the interactive client's daemon
 * listens on), `unix://PATH` that path (absolute). Pure: reads no file.
 *
 * @example codexListenAddress(["/x/codex", "app-server", "--listen", "unix://"], "/h/.codex") // { ok: true, socketPath: "/h/.codex/app-server-control/app-server-control.sock" }
 */
export function codexListenAddress(argv: readonly string[], codexHome: string): CodexDoorAddress {
  const program = basename(argv[0] ?? "");
  if (program !== "codex") return { ok: false, reason: "not_codex" };
  const rest = argv.slice(1);
  if (subcommandOf(rest) !== "app-server") return { ok: false, reason: "in_process" };
  const listen = listenOf(rest) ?? CODEX_DEFAULT_LISTEN;
  if (listen === "off") return { ok: false, reason: "no_listener" };
  if (listen.startsWith("ws://") || listen.startsWith("wss://"))
    return { ok: false, reason: "websocket" };
  if (!listen.startsWith("unix://")) return { ok: false, reason: "stdio" };
  const path = listen.slice("unix://".length);
  if (path === "") return { ok: true, socketPath: join(codexHome, ...CODEX_CONTROL_SOCKET) };
  if (!isAbsolute(path)) return { ok: false, reason: "socket_foreign" };
  return { ok: true, socketPath: path };
}

/**
 * The door of the Codex process `pid` (read from `/proc/<pid>/cmdline`): {@link codexListenAddress},
 * then the socket must exist, be a socket (a link to one is followed: Codex's control socket is a
 * link into `/tmp/codex-daemon-<uid>/`) and belong to `uid`. Never throws.
 *
 * @example codexDoorAddress(4711, "/home/lee/.codex", 1000)
 */
export function codexDoorAddress(pid: number, codexHome: string, uid: number): CodexDoorAddress {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter((a) => a !== "");
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const address = codexListenAddress(argv, codexHome);
  if (!address.ok) return address;
  try {
    const stat = statSync(address.socketPath);
    if (!stat.isSocket() || stat.uid !== uid) return { ok: false, reason: "socket_foreign" };
  } catch {
    return { ok: false, reason: "socket_foreign" };
  }
  return address;
}
