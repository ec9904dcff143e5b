import { brigadeVersion } from "../../local-files/index.ts";
import type { BrigadeCommand } from "../host-session/index.ts";

/** The plugin's file name in OpenCode's global `plugins/` folder. */
export const OPENCODE_PLUGIN_FILE = "brigade.js";

/**
 * The first line of the plugin file: Brigade's install marker (`brigade_install: 1` and the
 * Brigade version that wrote it). A file at the plugin's place without it is someone else's.
 */
export const OPENCODE_PLUGIN_MARKER_PREFIX = "// brigade-install: ";

/** Each hook's cap in the plugin, ms: a hook that runs longer is killed and counts as `{}`. */
export const OPENCODE_HOOK_TIMEOUTS_MS = {
  "session-start": 10_000,
  turn: 8_000,
  "turn-end": 5_000,
  "session-end": 5_000,
} as const;

/**
 * Whether `text` (a plugin file's content) starts with Brigade's install marker line.
 *
 * @example isBrigadePlugin(openCodePluginText(command)) === true
 */
export function isBrigadePlugin(text: string): boolean {
  const first = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  if (!first.startsWith(OPENCODE_PLUGIN_MARKER_PREFIX)) return false;
  try {
    const marker = JSON.parse(first.slice(OPENCODE_PLUGIN_MARKER_PREFIX.length)) as unknown;
    return (
      typeof marker === "object" &&
      marker !== null &&
      (marker as { brigade_install?: unknown }).brigade_install === 1
    );
  } catch {
    return false;
  }
}

/**
 * The plugin Brigade installs into OpenCode (docs/49-opencode.md "Install"), a JavaScript module
 * OpenCode imports into its own process at an instance's start. What it does:
 * - `config`: adds the MCP server `brigade` (`[<node>, <cli>, "mcp"]`) unless the person's
 *   configuration already names one (theirs wins);
 * - `chat.message` (each user message, before the model's request): for a session that is not a
 *   subagent's (`parentID`), the first time `brigade host-hook opencode session-start` (a session
 *   it did not bind — no context line — is left alone from then on), then each time `turn`; a
 *   hook's `{"context"}` is kept for that session;
 * - `experimental.chat.system.transform`: adds the session's context line and its latest notice
 *   to the system prompt of its requests;
 * - `event`: `session.idle` → `turn-end`, `session.deleted` → `session-end` (bound sessions).
 * Each hook is `<node> <cli> host-hook opencode <event>` started without a shell, the document
 * `{session_id, cwd, server_url, opencode_version}` on its stdin, killed at its cap
 * (`OPENCODE_HOOK_TIMEOUTS_MS`); a failure is silent (OpenCode is never stopped by Brigade). The
 * paths are JSON string literals: a quote or backslash in them stays data.
 *
 * @example openCodePluginText({ node: "/usr/bin/node", cli: "/w/brigade/dist/cli/main.js" }).startsWith("// brigade-install: ")
 */
export function openCodePluginText(command: BrigadeCommand): string {
  const marker = JSON.stringify({ brigade_install: 1, brigade_version: brigadeVersion() });
  const node = JSON.stringify(command.node);
  const cli = JSON.stringify(command.cli);
  const timeouts = JSON.stringify(OPENCODE_HOOK_TIMEOUTS_MS);
  return `${OPENCODE_PLUGIN_MARKER_PREFIX}${marker}
// Brigade's OpenCode plugin, written by \`brigade install opencode\`; \`brigade uninstall opencode\`
// removes this file. It binds each OpenCode session to Brigade, adds Brigade's MCP server and
// tells the model when teammates' messages wait (docs/49-opencode.md).
import { spawn } from "node:child_process";

const NODE = ${node};
const CLI = ${cli};
const TIMEOUTS = ${timeouts};
const MAX_OUTPUT = 65536;

function hook(event, document) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(NODE, [CLI, "host-hook", "opencode", event], {
        stdio: ["pipe", "pipe", "ignore"],
      });
    } catch {
      resolve({});
      return;
    }
    let out = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUTS[event]);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      if (out.length < MAX_OUTPUT) out += chunk;
    });
    child.on("error", () => {
      clearTimeout(timer);
      resolve({});
    });
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const parsed = JSON.parse(out);
        resolve(typeof parsed === "object" && parsed !== null ? parsed : {});
      } catch {
        resolve({});
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(document));
  });
}

export const BrigadePlugin = async ({ client, directory, serverUrl }) => {
  let url = "";
  try {
    url = String(serverUrl ?? "");
  } catch {}
  const bound = new Map();
  const skipped = new Set();

  const documentOf = (sessionID, version) => ({
    session_id: sessionID,
    cwd: directory,
    server_url: url,
    opencode_version: version ?? "",
  });

  async function sessionInfo(sessionID) {
    try {
      const got = await client.session.get({ path: { id: sessionID } });
      return typeof got?.data === "object" && got.data !== null ? got.data : {};
    } catch {
      return {};
    }
  }

  return {
    config: async (config) => {
      if (typeof config.mcp !== "object" || config.mcp === null) config.mcp = {};
      if (config.mcp.brigade === undefined) {
        config.mcp.brigade = { type: "local", command: [NODE, CLI, "mcp"], enabled: true };
      }
    },
    "chat.message": async (input) => {
      const sessionID = input?.sessionID;
      if (typeof sessionID !== "string" || skipped.has(sessionID)) return;
      let session = bound.get(sessionID);
      if (session === undefined) {
        const info = await sessionInfo(sessionID);
        if (typeof info.parentID === "string") {
          skipped.add(sessionID);
          return;
        }
        const version = typeof info.version === "string" ? info.version : "";
        const started = await hook("session-start", documentOf(sessionID, version));
        if (typeof started.context !== "string") {
          // Not bound (no team binds the folder, or the start failed): nothing to do for it.
          skipped.add(sessionID);
          return;
        }
        session = { version, context: started.context, notice: "" };
        bound.set(sessionID, session);
      }
      const turn = await hook("turn", documentOf(sessionID, session.version));
      session.notice = typeof turn.context === "string" ? turn.context : "";
    },
    "experimental.chat.system.transform": async (input, output) => {
      const session = bound.get(input?.sessionID);
      if (session === undefined || !Array.isArray(output?.system)) return;
      for (const line of [session.context, session.notice]) if (line !== "") output.system.push(line);
    },
    event: async ({ event }) => {
      const sessionID = event?.properties?.sessionID ?? event?.properties?.info?.id;
      const session = bound.get(sessionID);
      if (session === undefined) return;
      if (event.type === "session.idle") {
        session.notice = "";
        await hook("turn-end", documentOf(sessionID, session.version));
      } else if (event.type === "session.deleted") {
        bound.delete(sessionID);
        await hook("session-end", documentOf(sessionID, session.version));
      }
    },
  };
};
`;
}
