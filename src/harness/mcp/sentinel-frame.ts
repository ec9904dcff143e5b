import { compose, MODE_INJECTED } from "../../formats/agent-message/index.ts";

/**
 * What a model outside Claude Code reads for one Brigade message (docs/48-mcp.md,
 * docs/14-agent-message.md): the `lsp:agent-message-v1` sentinel line, then the bare
 * `<brigade-message>` frame exactly as the pipeline built it. `fromSession` is the sender's
 * session id as the server stamped it, `mode` is `injected` (the server, not any model, named the
 * sender), `workspace` the team and server (`originWorkspace`). The sender's own text is inside
 * the frame, sanitised, below its first line, so a sentinel it holds is never the one a reader
 * parses (`parse` reads the first line only).
 *
 * @throws {AgentMessageError} `EMPTY_FROM_SESSION` for a blank sender id (the inbound pipeline
 *   never hands one out).
 * @example sentinelFrame(frame, "s-2b8e", "brigade:t-1@brigade.example.com").startsWith("<!-- lsp:agent-message-v1 ")
 */
export function sentinelFrame(frame: string, senderSessionId: string, workspace: string): string {
  return compose(frame, { fromSession: senderSessionId, workspace, mode: MODE_INJECTED });
}
