/**
 * The harness side of `brigade mcp` (docs/48-mcp.md): binding a call to the Brigade session the
 * host names (never one the model names), and the `inbox` delivery — the shared inbound pipeline,
 * the agent-message sentinel on every message, acknowledged only once the result was written.
 */
export {
  type BindSessionInput,
  type BindSessionReason,
  type BindSessionResult,
  bindSession,
  MCP_BINDING_REFUSALS,
  MCP_BINDING_SENTENCES,
  type McpBindingRefusal,
  mcpRefusalLine,
} from "./bind-session.ts";
export {
  harnessBindingPath,
  readHarnessBinding,
  writeHarnessBinding,
} from "./harness-binding-file.ts";
export {
  CLAUDE_CODE_SESSION_VARIABLE,
  type HarnessIdentity,
  harnessIdentity,
  MAX_NATIVE_SESSION_ID,
  MCP_META_SESSION_KEYS,
} from "./harness-identity.ts";
export { LEASE_KEEPER_INTERVAL_MS, LeaseKeeper } from "./lease-keeper.ts";
export {
  INBOX_ACK_TIMEOUT_MS,
  INBOX_MAX_MESSAGES,
  INBOX_MAX_WAIT_S,
  type InboxFailure,
  type InboxTake,
  type InboxTakeOptions,
  McpInbox,
} from "./mcp-inbox.ts";
export { originWorkspace, sessionWorkspace, WORKSPACE_PREFIX } from "./origin-workspace.ts";
export { MAX_ANCESTORS, processAncestors } from "./process-ancestors.ts";
export { sentinelFrame } from "./sentinel-frame.ts";
