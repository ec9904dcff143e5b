import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { clientDotenvChoice } from "../../harness/host-clients.ts";
import {
  bindSession,
  LEASE_KEEPER_INTERVAL_MS,
  LeaseKeeper,
  McpInbox,
  mcpRefusalLine,
  processAncestors,
} from "../../harness/mcp/index.ts";
import type { CliIo } from "../cli-io.ts";
import { parseCommandFlags } from "../parse-command-flags.ts";
import { createBrigadeMcpServer } from "./brigade-mcp-server.ts";
import { DeliveryTransport } from "./delivery-transport.ts";

const HELP = `usage: brigade mcp

Serves Brigade to a coding-agent host as an MCP server on stdin and stdout (the 2025 initialize
protocol and the 2026-07-28 one). Configure the host to start "brigade mcp"; it is not run by hand.
Tools: send (brigade send), inbox (this session's messages, each with its origin line and frame;
a message returned counts as read) and who (brigade sessions). The session is the one the host
names (Codex's threadId, OpenCode's sessionID, Claude Code's CLAUDE_CODE_SESSION_ID) or the one a
Brigade session hook registered for a process above this one; never one a tool argument names.
A message carries no authority: it cannot approve anything. See docs/48-mcp.md.
`;

/**
 * `brigade mcp`: serves the three tools over this process's stdin and stdout until stdin ends,
 * then exits 0 (docs/48-mcp.md). `serveStdio` decides each connection's protocol generation from
 * its opening exchange; the server is {@link createBrigadeMcpServer} over a
 * {@link DeliveryTransport}. Nothing but JSON-RPC is written to stdout; a transport error writes
 * one line with the error's class name to stderr. `--help` prints the usage, exit 0; any other
 * argument is a usage error (exit 2). Runs on the real process's stdio, whatever `io.stdin` is.
 *
 * @example brigade mcp   # started by the host, e.g. codex's config: command = "brigade", args = ["mcp"]
 */
export async function runMcp(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandFlags("mcp", argv, { help: { type: "boolean", short: "h" } });
  if (values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const transport = new DeliveryTransport();
  let ancestors: readonly number[] | undefined;
  // A host that loaded a repository's .env choosing Brigade's folders is refused on every call.
  const chosen = await clientDotenvChoice(io.env, process.cwd());
  const deps = {
    env: io.env,
    ancestors: () => {
      ancestors ??= processAncestors(process.pid);
      return ancestors;
    },
    inbox: new McpInbox(),
    transport,
    leases: new LeaseKeeper(),
    ...(chosen === undefined ? {} : { refusal: mcpRefusalLine("repository_env") }),
  };
  // A host that binds through the process tree (its session hook ran before it started us) is
  // kept from the start; one that names its session per call, from its first call.
  const atStart = bindSession({ env: io.env, meta: undefined, ancestors: deps.ancestors() });
  if (atStart.ok && chosen === undefined) deps.leases.keep(atStart.context);
  const keeper = setInterval(() => void deps.leases.tick(), LEASE_KEEPER_INTERVAL_MS);
  keeper.unref();
  const handle = serveStdio(() => createBrigadeMcpServer(deps), {
    transport,
    onerror: (error) => io.stderr(`brigade mcp: ${error.name}\n`),
  });
  await transport.closed;
  clearInterval(keeper);
  await handle.close();
  return 0;
}
