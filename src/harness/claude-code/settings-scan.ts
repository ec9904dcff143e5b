import { join } from "node:path";
import { readLocalFile } from "../../local-files/index.ts";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";

/** Largest settings file read, bytes (docs/spec/claude-code.md §4: 1 MiB). */
export const MAX_SETTINGS_BYTES = 1_048_576;

/** The three settings files of the scan, by the name a warning line may show (never a path). */
export const SCANNED_SETTINGS = [
  ".claude/settings.local.json",
  ".claude/settings.json",
  "user settings.json",
] as const;

/** One {@link SCANNED_SETTINGS} name. */
export type ScannedSettings = (typeof SCANNED_SETTINGS)[number];

/** Result of {@link scanInboundSettings}. */
export interface InboundSettingsScan {
  /** The files whose top-level `crossSessionInbound` is a string other than `accept`. */
  readonly hits: readonly ScannedSettings[];
}

/**
 * Reads the top-level `crossSessionInbound` of settings bytes: the string value, or `undefined`
 * when the document is not one JSON object or the key is absent or not a string. Never throws.
 *
 * @example crossSessionInboundOf(new TextEncoder().encode('{"crossSessionInbound":"hold"}')) === "hold"
 */
export function crossSessionInboundOf(bytes: Uint8Array): string | undefined {
  const parsed = parseJsonDocument(bytes, { maxBytes: MAX_SETTINGS_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value.crossSessionInbound;
  return typeof value === "string" ? value : undefined;
}

/**
 * The `crossSessionInbound` scan (docs/spec/claude-code.md §4), best effort:
 * `<cwd>/.claude/settings.local.json`, `<cwd>/.claude/settings.json`,
 * `<claudeConfigDir>/settings.json`, at most 1 MiB each, top-level key only. Any string other than
 * `accept` (`hold`, `refuse`, or a value Claude Code does not know, which it holds) is a hit:
 * Claude Code would not deliver our posts, so Brigade's effective policy becomes `refuse` (nothing
 * injected, nothing acked). `--settings` and managed settings are invisible here. Never throws.
 *
 * @example scanInboundSettings({ cwd: "/w/api", claudeConfigDir: "/home/dana/.claude" }).hits
 */
export function scanInboundSettings(options: {
  readonly cwd: string;
  readonly claudeConfigDir: string | undefined;
}): InboundSettingsScan {
  const files: [ScannedSettings, string | undefined][] = [
    [
      ".claude/settings.local.json",
      options.cwd === "" ? undefined : join(options.cwd, ".claude", "settings.local.json"),
    ],
    [
      ".claude/settings.json",
      options.cwd === "" ? undefined : join(options.cwd, ".claude", "settings.json"),
    ],
    [
      "user settings.json",
      options.claudeConfigDir === undefined
        ? undefined
        : join(options.claudeConfigDir, "settings.json"),
    ],
  ];
  const hits: ScannedSettings[] = [];
  for (const [name, path] of files) {
    if (path === undefined) continue;
    const read = readLocalFile(path, { maxBytes: MAX_SETTINGS_BYTES, followSymlink: true });
    if (!read.ok) continue;
    const value = crossSessionInboundOf(read.bytes);
    if (value !== undefined && value !== "accept") hits.push(name);
  }
  return { hits };
}
