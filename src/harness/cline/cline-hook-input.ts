import { MAX_HOST_HOOK_INPUT_BYTES } from "../host-session/index.ts";
import { CLINE_3_HOOK_NAMES, CLINE_MCP_TOOL } from "./cline-facts.ts";

/** A string member of at most 4096 code units, with no control character, else `""`. */
function text(value: unknown): string {
  if (typeof value !== "string" || value.length > 4096) return "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return /[\u0000-\u001f\u007f]/.test(value) ? "" : value;
}

function object(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The tool a Cline `postToolUse` names, as the pull lane's hook flow reads it: Cline's own tool
 * name (`execute_command`…), or for an MCP tool `use_mcp_tool/<server>/<tool>` (Cline names every
 * MCP tool `use_mcp_tool` and puts the server and tool in `parameters`, `CLINE_MCP_TOOL`).
 *
 * @example clineToolName({ toolName: "use_mcp_tool", parameters: { server_name: "brigade", tool_name: "inbox" } }) === "use_mcp_tool/brigade/inbox"
 */
export function clineToolName(postToolUse: unknown): string {
  const o = object(postToolUse);
  if (o === undefined) return "";
  const name = text(o.toolName);
  if (name !== CLINE_MCP_TOOL) return name;
  const parameters = object(o.parameters) ?? {};
  return `${CLINE_MCP_TOOL}/${text(parameters.server_name)}/${text(parameters.tool_name)}`;
}

/**
 * Whether a hook's stdin `raw` was written by Cline 3 (its `hookName` is one of
 * `CLINE_3_HOOK_NAMES`): its sessions run in a shared hub daemon where no process and no MCP call
 * names the session, so the pull lane binds nothing for it. Never throws.
 *
 * @example fromCline3('{"hookName":"agent_start","taskId":"conv_1"}') === true
 */
export function fromCline3(raw: string): boolean {
  try {
    const o = object(JSON.parse(raw));
    return o !== undefined && CLINE_3_HOOK_NAMES.includes(text(o.hookName));
  } catch {
    return false;
  }
}

/**
 * A Cline hook's stdin (`CLINE_HOOK_INPUT_MEMBERS`, docs/49-cline.md) as the document the shared
 * hook flow reads (`parseHostHookInput`: `session_id`, `cwd`, `tool_name`): the task id is the
 * session, the first workspace root (absolute) the folder, `postToolUse` the tool
 * ({@link clineToolName}). A document that is not a JSON object of at most
 * {@link MAX_HOST_HOOK_INPUT_BYTES} is `undefined`; a member of the wrong type, too long, or
 * holding a control character reads as `""`. Never throws.
 *
 * @example clineHookDocument('{"taskId":"1796439278937","workspaceRoots":["/w/api"]}') === '{"session_id":"1796439278937","cwd":"/w/api","tool_name":""}'
 */
export function clineHookDocument(raw: string): string | undefined {
  if (raw.length > MAX_HOST_HOOK_INPUT_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const o = object(value);
  if (o === undefined) return undefined;
  const roots = Array.isArray(o.workspaceRoots) ? o.workspaceRoots : [];
  const cwd = text(roots[0]);
  return JSON.stringify({
    session_id: text(o.taskId),
    cwd: cwd.startsWith("/") ? cwd : "",
    tool_name: clineToolName(o.postToolUse),
  });
}
