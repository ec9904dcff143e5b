import {
  type HostHookDeps,
  type HostHookEvent,
  type HostHookSpec,
  runHostHook,
} from "../host-session/index.ts";
import { CLINE_DOTENV_FILES, CLINE_MCP_TOOL, type ClineHookEvent } from "./cline-facts.ts";
import { clineHookDocument, fromCline3 } from "./cline-hook-input.ts";
import { clineVersionOf } from "./cline-version.ts";

/** The binding folder of Cline sessions (`sessions/by-harness/cline/<task id>.json`). */
export const CLINE_HOST = "cline";

/** The name of Brigade's MCP server in Cline's settings. */
export const CLINE_SERVER_NAME = "brigade";

/**
 * Each Cline hook Brigade installs and the pull-lane event it runs (docs/49-cline.md "Install"):
 * a task is the session (`TaskStart`, and `TaskResume` when `cline -T <id>` takes it up again:
 * the binding file resumes its Brigade session); `UserPromptSubmit` the turn; `PostToolUse` the
 * notice during a long task; `TaskComplete` the turn's end (the person may still answer the
 * result); `TaskCancel` the end (Cline runs it as the process ends too).
 */
export const CLINE_HOOKS: Readonly<Record<string, HostHookEvent>> = {
  TaskStart: "session-start",
  TaskResume: "session-start",
  UserPromptSubmit: "turn",
  PostToolUse: "post-tool",
  TaskComplete: "turn-end",
  TaskCancel: "session-end",
} satisfies Partial<Record<ClineHookEvent, HostHookEvent>>;

/** The events `brigade host-hook cline <event>` takes. */
export const CLINE_BRIGADE_EVENTS: readonly HostHookEvent[] = [
  "session-start",
  "turn",
  "post-tool",
  "turn-end",
  "session-end",
];

/** What a hook prints when it has nothing to say: Cline 2.18.0 reads `cancel` from every hook. */
const NOTHING = JSON.stringify({ cancel: false });

/** Cline in the pull lane's hook flow (`runHostHook`). */
export const CLINE_HOOK_SPEC: HostHookSpec = {
  host: CLINE_HOST,
  harness: "cline",
  versionOf: clineVersionOf,
  ownToolPrefix: `${CLINE_MCP_TOOL}/${CLINE_SERVER_NAME}/`,
  dotenvFiles: CLINE_DOTENV_FILES,
  // Cline puts a hook's `contextModification` before the model unescaped, and shows it to the
  // person as the hook's output: one shape for every event.
  output: (_event, context) =>
    context === "" ? NOTHING : JSON.stringify({ cancel: false, contextModification: context }),
};

/**
 * Runs one Cline hook (docs/49-cline.md) for `event` with the hook's stdin document and returns
 * the JSON document to print: the pull lane's flow (`runHostHook`) on Cline's document read as
 * the shared one (`clineHookDocument`: the task id is the session), and `{"cancel":false}` where
 * the flow has nothing to say (never a document that could stop the task). A hook Cline 3 runs
 * (`fromCline3`) binds nothing: one line `unsupported_version` through `deps.log`. Never throws.
 *
 * @example await runClineHook("turn", stdin, { env: process.env, uid, now: Date.now, log })
 */
export async function runClineHook(
  event: HostHookEvent,
  stdin: string,
  deps: HostHookDeps,
): Promise<string> {
  if (fromCline3(stdin)) {
    deps.log("brigade host-hook cline: unsupported_version\n");
    return NOTHING;
  }
  const document = clineHookDocument(stdin);
  if (document === undefined) {
    deps.log("brigade host-hook cline: bad_input\n");
    return NOTHING;
  }
  const printed = await runHostHook(CLINE_HOOK_SPEC, event, document, deps);
  return printed === "{}" ? NOTHING : printed;
}
