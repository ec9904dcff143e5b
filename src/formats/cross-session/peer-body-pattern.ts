import {
  CLOSE_SET,
  COLON_SET,
  DASH_SET,
  EQUALS_SET,
  EXTRA_DASH_SET,
  INVIS_SET,
  NAME_SET,
  OPEN_SET,
  SEP_SET,
} from "./character-sets.ts";
import { CONTINUATION_MARKERS, markerClassFor } from "./folded-reading.ts";
import { GroupCounter } from "./tag-pattern.ts";

/** Which rule groups of docs/spec/cross-session.md §7.4 a peer-body pattern contains. */
export interface PeerBodyRuleGroups {
  /** Group 1: ordinary tags (lower-case `[a-z0-9_-]`), each ending at a non-name character. */
  readonly tags: readonly string[];
  /** Group 2: `channel` with a `source=` attribute. */
  readonly channel: boolean;
  /** Group 3: the `antml` prefix followed by a colon look-alike. */
  readonly antml: boolean;
}

/** Most reading characters allowed between the `channel` name and its `source` attribute. */
const CHANNEL_SPAN_LIMIT = 120;

/** `FSPELL(t)`: the tag's characters on the folded reading, INVIS runs between them. */
function foldedSpelling(tag: string, groups: GroupCounter): string {
  let spell = "";
  for (const [index, ch] of [...tag].entries()) {
    if (index > 0) spell += groups.run(INVIS_SET);
    spell +=
      ch === "-" || ch === "_"
        ? `[${DASH_SET}${EXTRA_DASH_SET}${markerClassFor("-")}]`
        : `[${ch}${markerClassFor(ch)}]`;
  }
  return spell;
}

/**
 * Regex source (flags `giu`, run on a folded reading) matching the OPEN character of every opener or
 * closer the chosen rule groups defuse: `[OPEN](?!\\)(?=FILLER(?:…))`, the groups united in one
 * lookahead so one pass rewrites a position if any group matches there.
 * Example: `peerBodyPatternSource({ tags: ["cited"], channel: false, antml: false })`.
 */
export function peerBodyPatternSource(rules: PeerBodyRuleGroups): string {
  const groups = new GroupCounter();
  const alternatives: string[] = [];
  if (rules.tags.length > 0) {
    const spellings = rules.tags.map((tag) => foldedSpelling(tag, groups));
    alternatives.push(`(?:${spellings.join("|")})(?:[^${NAME_SET}]|$)`);
  }
  if (rules.channel) {
    const name = foldedSpelling("channel", groups);
    const tail = groups.run(INVIS_SET);
    const boundary = `(?:(?![${NAME_SET}])|(?<=[${SEP_SET}][${INVIS_SET}]*))`;
    // Free in the span: continuation markers (one input character may read as several), and the
    // `\` of an already-escaped opener, so that escaping another tag inside the span never changes
    // whether a channel opener matches (superset rule and idempotence of
    // docs/spec/cross-session.md §7.5).
    const free = `(?:[${CONTINUATION_MARKERS}]|(?<=[${OPEN_SET}])\\\\)`;
    const span = `${free}*(?:[^${CLOSE_SET}${CONTINUATION_MARKERS}]${free}*){0,${CHANNEL_SPAN_LIMIT}}?`;
    const source = foldedSpelling("source", groups);
    alternatives.push(
      `${name}${tail}${boundary}${span}(?<![\\w-])${source}[\\s\\u2800${INVIS_SET}]*[${EQUALS_SET}]`,
    );
  }
  if (rules.antml) {
    const name = foldedSpelling("antml", groups);
    alternatives.push(`${name}${groups.run(INVIS_SET)}[${COLON_SET}]`);
  }
  return `[${OPEN_SET}](?!\\\\)(?=[^${NAME_SET}${OPEN_SET}${CLOSE_SET}]*?(?:${alternatives.join("|")}))`;
}
