import { realpathSync } from "node:fs";
import { showsClaudeCodeSession } from "../harness/claude-code/index.ts";
import { HOST_CLIENTS } from "../harness/host-clients.ts";
import type { ClientInstallOutcome, HostClient } from "../harness/host-session/index.ts";
import type { CliIo } from "./cli-io.ts";
import { nearestName } from "./nearest-name.ts";

const CLIENT_NAMES = Object.keys(HOST_CLIENTS).join("|");

const HELP = `usage: brigade install <${CLIENT_NAMES}>

Connects a coding-agent client to Brigade, for every session of it that starts in a folder your
team binds (.brigade.json): its hooks register the session and tell its model what waits, and
brigade mcp gives it the tools inbox, send and who. Writes only the files named in docs/49-hosts.md
for that client, and prints each. "brigade uninstall <client>" takes them out again. Run it in
your own terminal, never from an agent session. (Claude Code is reached through its plugin.)
Exit status: 0 done, 1 something could not be written (named), 2 an argument or inside a session.
`;

/** The absolute path of the running CLI entry (this checkout's `dist/cli/main.js`), or `""`. */
function entryScript(): string {
  const script = process.argv[1];
  if (script === undefined || script === "") return "";
  try {
    return realpathSync(script);
  } catch {
    return "";
  }
}

/** A line that says an agent session is where this runs, naming no value. */
const INSIDE_SESSION_LINE =
  "this changes a coding-agent client's configuration: run it in your own terminal, not in an agent session";

/**
 * The client `argv` names, or the exit status of a refusal already written: a usage error for a
 * missing or unknown name (with the nearest known one; the typed text is never repeated), and a
 * refusal inside any agent session (Claude Code's, or one any client recognises).
 */
async function chosenClient(
  command: "install" | "uninstall",
  argv: readonly string[],
  io: CliIo,
): Promise<HostClient | number> {
  const [name] = argv;
  if (argv.length !== 1 || name === undefined || !Object.hasOwn(HOST_CLIENTS, name)) {
    const near = name === undefined ? undefined : nearestName(name, Object.keys(HOST_CLIENTS));
    const hint = near === undefined ? "" : `; did you mean "${near}"?`;
    io.stderr(`brigade ${command}: usage: brigade ${command} <${CLIENT_NAMES}>${hint}\n`);
    return 2;
  }
  const clients = await Promise.all(Object.values(HOST_CLIENTS).map((load) => load()));
  if (showsClaudeCodeSession(io.env) || clients.some((c) => c.insideSession(io.env))) {
    io.stderr(`brigade ${command}: ${INSIDE_SESSION_LINE}\n`);
    return 2;
  }
  const load = HOST_CLIENTS[name];
  return load === undefined ? 2 : await load();
}

function report(
  command: string,
  client: HostClient,
  outcome: ClientInstallOutcome,
  io: CliIo,
): number {
  if (!outcome.ok) {
    io.stderr(`brigade ${command} ${client.name}: ${outcome.code}: ${outcome.line}\n`);
    return 1;
  }
  io.stdout(`${outcome.lines.join("\n")}\n`);
  return 0;
}

/**
 * `brigade install <client>` (docs/49-hosts.md): refused (exit 2) inside any agent session; runs
 * the client's `install` with this Node and this CLI's entry script, prints its lines (exit 0) or
 * its refusal (exit 1).
 *
 * @example await runInstall(["gemini"], processIo()) // 0
 */
export async function runInstall(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  const client = await chosenClient("install", argv, io);
  if (typeof client === "number") return client;
  const cli = entryScript();
  if (cli === "") {
    io.stderr(
      "brigade install: the path of this brigade cannot be told: run it as an installed command\n",
    );
    return 1;
  }
  return report("install", client, client.install(io.env, { node: process.execPath, cli }), io);
}

/**
 * `brigade uninstall <client>`: refused inside any agent session; runs the client's `uninstall`
 * and prints its lines (exit 0) or its refusal (exit 1).
 *
 * @example await runClientUninstall(["gemini"], processIo()) // 0
 */
export async function runClientUninstall(argv: string[], io: CliIo): Promise<number> {
  const client = await chosenClient("uninstall", argv, io);
  if (typeof client === "number") return client;
  return report("uninstall", client, client.uninstall(io.env), io);
}
