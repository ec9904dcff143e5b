import { CLAUDE_CODE_TAGS } from "./claude-code-tags.ts";
import { FRAME_TAG_FAMILIES } from "./frame-tag-families.ts";

/**
 * The reading of a tag name: `_` reads as `-`, so `system_reminder` is `system-reminder`.
 *
 * @example readingOf("tool_use_error") === "tool-use-error"
 */
export function readingOf(name: string): string {
  return name.replaceAll("_", "-");
}

const FAMILY_READINGS = FRAME_TAG_FAMILIES.map(readingOf);

/**
 * Every name the tag reading recognises (docs/11-sanitizer.md), each reading once: first the five
 * {@link FRAME_TAG_FAMILIES}, matched as a prefix (docs/spec/formats.md §1.2), then from
 * {@link WHOLE_NAMES_FROM} on Claude Code's own tags ({@link CLAUDE_CODE_TAGS}), matched as whole
 * names. A Claude Code tag that a family already covers as a prefix (`channel`, `system_reminder`)
 * is left out; of two tags that read the same, the first stays.
 *
 * @example READ_TAG_NAMES.indexOf("command-name") >= WHOLE_NAMES_FROM
 */
export const READ_TAG_NAMES: readonly string[] = (() => {
  const names: string[] = [...FRAME_TAG_FAMILIES];
  const seen = new Set(FAMILY_READINGS);
  for (const name of CLAUDE_CODE_TAGS) {
    const reading = readingOf(name);
    if (seen.has(reading) || FAMILY_READINGS.some((family) => reading.startsWith(family))) continue;
    seen.add(reading);
    names.push(name);
  }
  return names;
})();

/** Index in {@link READ_TAG_NAMES} of the first name matched whole rather than as a prefix. */
export const WHOLE_NAMES_FROM: number = FRAME_TAG_FAMILIES.length;
