import { isDeepStrictEqual } from "node:util";
import { CLINE_SERVER_NAME } from "./cline-hook.ts";

/** Largest settings file Brigade edits, bytes. */
export const MAX_CLINE_SETTINGS_BYTES = 1_048_576;

/**
 * Why Cline's MCP settings file cannot take (or give back) Brigade's entry (docs/errors.md): its
 * text is not a JSON object (`not_json`), its `mcpServers` is not an object
 * (`servers_not_object`), a server `brigade` Brigade did not add is there (`server_present`); the
 * file is a symbolic link (`symlink`), not a regular file (`not_regular`), over 1 MiB
 * (`too_large`) or cannot be read (`unreadable`). The command's code is `config_refused`.
 *
 * @example CLINE_SETTINGS_REFUSALS.includes("server_present") === true
 */
export const CLINE_SETTINGS_REFUSALS = [
  "not_json",
  "servers_not_object",
  "server_present",
  "symlink",
  "not_regular",
  "too_large",
  "unreadable",
] as const;

/** One of {@link CLINE_SETTINGS_REFUSALS}. */
export type ClineSettingsRefusal = (typeof CLINE_SETTINGS_REFUSALS)[number];

/** The refusals of the text itself (the others are the file's). */
type TextRefusal = Extract<
  ClineSettingsRefusal,
  "not_json" | "servers_not_object" | "server_present"
>;

/** Brigade's server entry as it is written into Cline's MCP settings. */
export type ClineServerEntry = Readonly<Record<string, unknown>>;

/** The text Cline itself writes for a settings object: two-space JSON, no final newline. */
function serialize(settings: Record<string, unknown>): string {
  return JSON.stringify(settings, null, 2);
}

function parseSettings(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The settings text with Brigade's server `entry` added as `mcpServers.brigade`, every other
 * member kept (in its order; the text re-serialized as Cline writes it); `undefined` text (no
 * file) reads as `{"mcpServers": {}}`, the file Cline makes at its first start. Refused when the
 * text is not a JSON object (`not_json`), its `mcpServers` is not an object
 * (`servers_not_object`), or a server `brigade` is there already (`server_present`). Pure.
 *
 * @example addClineServer(undefined, { command: "/usr/bin/node", args: ["/w/cli.js", "mcp"] })
 */
export function addClineServer(
  text: string | undefined,
  entry: ClineServerEntry,
):
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: TextRefusal } {
  const settings = text === undefined ? { mcpServers: {} } : parseSettings(text);
  if (settings === undefined) return { ok: false, reason: "not_json" };
  const servers = settings.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return { ok: false, reason: "servers_not_object" };
  }
  if (Object.hasOwn(servers, CLINE_SERVER_NAME)) return { ok: false, reason: "server_present" };
  return {
    ok: true,
    text: serialize({ ...settings, mcpServers: { ...servers, [CLINE_SERVER_NAME]: entry } }),
  };
}

/** The server entry `text` holds as `mcpServers.brigade`, or `undefined`. Pure. */
export function clineServerOf(text: string): unknown {
  const servers = parseSettings(text)?.mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return undefined;
  return (servers as Record<string, unknown>)[CLINE_SERVER_NAME];
}

/**
 * How `current` (the settings file now) gives back Brigade's change that wrote `after`:
 * `restore` (the file is exactly `after`: put the recorded text from before back byte for byte), `take_out` (Cline or
 * the person changed other members since: the text with only Brigade's unchanged entry removed,
 * re-serialized as Cline writes it), `absent` (no Brigade entry is there any more: nothing to do),
 * or `changed` (Brigade's entry itself was edited, or the file is no longer a JSON object: left as
 * it is). Pure.
 *
 * @example clineUndo(after, after) // { kind: "restore" }
 */
export function clineUndo(
  current: string,
  after: string,
):
  | { readonly kind: "restore" }
  | { readonly kind: "take_out"; readonly text: string }
  | { readonly kind: "absent" }
  | { readonly kind: "changed" } {
  if (current === after) return { kind: "restore" };
  const settings = parseSettings(current);
  if (settings === undefined) return { kind: "changed" };
  const servers = settings.mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return { kind: "changed" };
  }
  if (!Object.hasOwn(servers, CLINE_SERVER_NAME)) return { kind: "absent" };
  const ours = clineServerOf(after);
  const now = (servers as Record<string, unknown>)[CLINE_SERVER_NAME];
  if (ours === undefined || !isDeepStrictEqual(now, ours)) return { kind: "changed" };
  const { [CLINE_SERVER_NAME]: _ours, ...others } = servers as Record<string, unknown>;
  return { kind: "take_out", text: serialize({ ...settings, mcpServers: others }) };
}
