import { basename, isAbsolute } from "node:path";
import { registeredName } from "../../formats/sanitize/index.ts";
import { readLocalFile } from "../../local-files/index.ts";
import type { SessionRegistryInfo } from "./session-registry.ts";

/** The name registered when no source gives one (docs/spec/claude-code.md §5). */
export const FALLBACK_SESSION_NAME = "claude-code";

/** The inputs of {@link chooseDisplayName}. */
export interface DisplayNameSources {
  readonly registry: Pick<SessionRegistryInfo, "name" | "nameSource">;
  /** The transcript's latest custom title (`""` when none). */
  readonly transcriptTitle: string;
  /** The stdin `session_title` (`""` when none). */
  readonly sessionTitle: string;
  /** The stdin `cwd`. */
  readonly cwd: string;
}

/**
 * The session name a hook registers (docs/spec/claude-code.md §5), the first non-empty of, each
 * through `registeredName` (64 code points, one line, sanitised): the registry name unless its
 * `nameSource` is `derived`; the transcript's latest custom title; the derived registry name;
 * stdin `session_title`; `basename(cwd)`; else `claude-code`.
 *
 * @example chooseDisplayName({ registry: { name: "api-3f2a", nameSource: "derived" }, transcriptTitle: "", sessionTitle: "", cwd: "/w/api" }) === "api-3f2a"
 */
export function chooseDisplayName(sources: DisplayNameSources): string {
  return chooseDisplayNameSource(sources).name;
}

/**
 * Where {@link chooseDisplayName}'s name came from: a name the person gave (`given`: the
 * registry's own name, the transcript's title, the stdin `session_title`), or a default (`derived`:
 * Claude Code's automatic name; `folder`: the folder's name; `fallback`: `claude-code`), which
 * the hook makes tell the person and the client apart.
 */
export type DisplayNameSource = "given" | "derived" | "folder" | "fallback";

/**
 * {@link chooseDisplayName} with the source of the name it chose (same precedence, same
 * sanitising). Never throws.
 *
 * @example chooseDisplayNameSource({ registry: { name: "", nameSource: "" }, transcriptTitle: "", sessionTitle: "", cwd: "/w/api" }) // { name: "api", source: "folder" }
 */
export function chooseDisplayNameSource(sources: DisplayNameSources): {
  name: string;
  source: DisplayNameSource;
} {
  const derived = sources.registry.nameSource === "derived";
  const candidates: [string, DisplayNameSource][] = [
    [derived ? "" : sources.registry.name, "given"],
    [sources.transcriptTitle, "given"],
    [derived ? sources.registry.name : "", "derived"],
    [sources.sessionTitle, "given"],
    [sources.cwd === "" ? "" : basename(sources.cwd), "folder"],
  ];
  for (const [candidate, source] of candidates) {
    if (candidate === "") continue;
    const name = registeredName(candidate);
    if (name !== "") return { name, source };
  }
  return { name: FALLBACK_SESSION_NAME, source: "fallback" };
}

/** The tail of the transcript read for the latest custom title, bytes. */
export const TRANSCRIPT_TITLE_TAIL_BYTES = 262_144;

const CUSTOM_TITLE_MARK = '"custom-title"';

/**
 * The latest custom title in a Claude Code transcript (JSONL, an internal format: we read lines of
 * the shape `{"type":"custom-title","customTitle":"…"}`, as `/rename` writes them). Only the last
 * 256 KiB are read; an absent, relative or unreadable path, or no such line → `""`. The transcript
 * never leaves the machine; only the title, through `registeredName`, is registered. Never throws.
 *
 * @example readTranscriptCustomTitle("/home/dana/.claude/projects/w/5d1c.jsonl")
 */
export function readTranscriptCustomTitle(path: string): string {
  if (path === "" || !isAbsolute(path)) return "";
  const read = readLocalFile(path, {
    maxBytes: TRANSCRIPT_TITLE_TAIL_BYTES,
    tail: true,
    followSymlink: true,
  });
  if (!read.ok) return "";
  const bytes = read.bytes;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (!text.includes(CUSTOM_TITLE_MARK)) return "";
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] as string;
    if (!line.includes(CUSTOM_TITLE_MARK)) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== "object" || value === null) continue;
      const o = value as { type?: unknown; customTitle?: unknown };
      if (o.type === "custom-title" && typeof o.customTitle === "string") return o.customTitle;
    } catch {
      // a torn first line of the tail, or another format: keep looking
    }
  }
  return "";
}
