import type { CallToolResult, ServerContext } from "@modelcontextprotocol/server";
import { Server } from "@modelcontextprotocol/server";
import { bindSession, type LeaseKeeper, type McpInbox } from "../../harness/mcp/index.ts";
import { SEND_STATE_WAIT_MS, type SessionContext } from "../../harness/session-context/index.ts";
import { brigadeVersion } from "../../local-files/index.ts";
import { bodyFromText, SEND_TIMEOUT_MS, sendAsSession, sendRefusal } from "../send-command.ts";
import { sessionsListing } from "../sessions-command.ts";
import type { DeliveryTransport } from "./delivery-transport.ts";
import { checkArguments, MCP_TOOLS, type ToolArguments } from "./mcp-tools.ts";

/** What the server of `brigade mcp` acts with, shared by every call of the process. */
export interface BrigadeMcpDeps {
  /** The process's environment, as the host set it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** This process's ancestors, nearest first (read once, on first use). */
  readonly ancestors: () => readonly number[];
  /** The inbox delivery, one pipeline per bound session for the life of the process. */
  readonly inbox: McpInbox;
  /** The stdio transport, told which response carries which messages. */
  readonly transport: DeliveryTransport;
  /** Keeps the lease of every session a call was bound to, for the life of the process. */
  readonly leases?: LeaseKeeper;
  /** A line every call answers instead of acting (the environment cannot be trusted). */
  readonly refusal?: string;
}

function text(lines: readonly string[], isError = false): CallToolResult {
  return {
    content: lines.map((line) => ({ type: "text", text: line })),
    ...(isError ? { isError: true } : {}),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

async function sendTool(
  deps: BrigadeMcpDeps,
  ctx: SessionContext,
  args: ToolArguments,
): Promise<CallToolResult> {
  const body = bodyFromText(args.body as string);
  if (!body.ok) return text([sendRefusal(body.refusal).line], true);
  // Relative paths name files of the session's project folder (the server's own working folder
  // is the host's choice, not the session's).
  const sent = await sendAsSession(ctx, {
    target: args.to as string,
    body: body.body,
    summary: args.summary as string | undefined,
    replyTo: args.reply_to as string | undefined,
    waitMs: SEND_STATE_WAIT_MS,
    attachments: args.attachments as readonly string[] | undefined,
    cwd: ctx.map.checkout ?? process.cwd(),
    env: deps.env,
  });
  return sent.ok ? text([sent.text]) : text([sent.line], true);
}

async function whoTool(ctx: SessionContext, args: ToolArguments): Promise<CallToolResult> {
  const listed = await sessionsListing(ctx, {
    all: args.all === true,
    json: false,
    allHint: 'who with "all": true lists them',
  });
  return listed.ok ? text([listed.text]) : text([listed.line], true);
}

async function inboxTool(
  deps: BrigadeMcpDeps,
  ctx: SessionContext,
  args: ToolArguments,
  call: ServerContext,
): Promise<CallToolResult> {
  const waitS = typeof args.wait_s === "number" ? args.wait_s : 0;
  const take = await deps.inbox.take(ctx, { waitMs: waitS * 1000, signal: call.mcpReq.signal });
  if (!take.ok) return text([take.line], true);
  if (take.owned === true) return text(take.blocks);
  const id = call.mcpReq.id;
  deps.transport.onResponse(id, take);
  call.mcpReq.signal.addEventListener("abort", () => deps.transport.cancel(id), { once: true });
  const notes: string[] = [];
  if (take.messages === 0) notes.push("Brigade: no new messages for this session.");
  if (take.waiting > 0) {
    notes.push(`Brigade: ${plural(take.waiting, "more message")} waiting; call inbox again.`);
  }
  if (take.held > 0) {
    notes.push(
      `Brigade: ${plural(take.held, "message")} held for your user (inbound policy hold); only your user can release them.`,
    );
  }
  return text(notes.length === 0 ? take.blocks : [...take.blocks, notes.join("\n")]);
}

async function callTool(
  deps: BrigadeMcpDeps,
  name: string,
  rawArgs: unknown,
  call: ServerContext,
): Promise<CallToolResult> {
  const tool = MCP_TOOLS.find((t) => t.name === name);
  if (tool === undefined) {
    return text(["usage: unknown tool; the tools are send, inbox and who"], true);
  }
  const checked = checkArguments(tool, rawArgs);
  if (!checked.ok) return text([checked.line], true);
  if (deps.refusal !== undefined) return text([deps.refusal], true);
  const bound = bindSession({
    env: deps.env,
    meta: call.mcpReq._meta,
    ancestors: deps.ancestors(),
    timeoutMs: SEND_TIMEOUT_MS,
  });
  if (!bound.ok) return text([bound.line], true);
  deps.leases?.keep(bound.context);
  switch (tool.name) {
    case "send":
      return sendTool(deps, bound.context, checked.args);
    case "who":
      return whoTool(bound.context, checked.args);
    default:
      return inboxTool(deps, bound.context, checked.args, call);
  }
}

/**
 * The MCP server of one `brigade mcp` connection (docs/48-mcp.md), built on the SDK's low-level
 * `Server` so `tools/list` answers {@link MCP_TOOLS} byte for byte in both protocol
 * generations. `tools/call` checks the arguments against the tool's schema first
 * ({@link checkArguments}), then binds the call to its session from what the host gives
 * (`bindSession`), then runs the tool: `send` is `brigade send` (`sendAsSession`, with its 3 s
 * wait for the state), `who` is `brigade sessions` (`sessionsListing`), `inbox` the inbox
 * delivery (`McpInbox`), acknowledged by the transport once the result is written. Every failure
 * is a tool result with `isError` and one value-free line (`<code>: <sentence>`), never a
 * protocol error.
 *
 * @example serveStdio(() => createBrigadeMcpServer(deps), { transport: deps.transport });
 */
export function createBrigadeMcpServer(deps: BrigadeMcpDeps): Server {
  const server = new Server(
    { name: "brigade", version: brigadeVersion() },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler("tools/list", async () => ({
    tools: MCP_TOOLS.map((tool) => structuredClone(tool)),
  }));
  server.setRequestHandler("tools/call", async (request, call) => {
    try {
      return await callTool(deps, request.params.name, request.params.arguments, call);
    } catch (error) {
      return text([`internal: ${error instanceof Error ? error.name : "error"}`], true);
    }
  });
  return server;
}
