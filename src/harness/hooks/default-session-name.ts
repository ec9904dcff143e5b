import { registeredName } from "../../formats/sanitize/index.ts";

/** Most code points of the person's part of a default session name. */
export const PERSON_PART_CODEPOINTS = 16;

/** Most code points of a registered session name (docs/spec/protocol.md §7). */
const NAME_CODEPOINTS = 64;

/**
 * The person's part of a default session name, from their label (git's `user.name`, or the
 * label option's text): its first word of letters and digits, lowercased, at most
 * {@link PERSON_PART_CODEPOINTS} code points; `""` when the label has none. Pure.
 *
 * @example personNamePart("Dana Ito") === "dana"; personNamePart("dana@example.org") === "dana"
 */
export function personNamePart(label: string | undefined): string {
  const words = (label ?? "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ");
  return [...(words[0] ?? "")].slice(0, PERSON_PART_CODEPOINTS).join("");
}

/**
 * **[ours]** The name a session registers when the person gave it none (docs/43-session-cli.md,
 * "Rows a person can tell apart"): `<person>-<base>-<harness>`, each part left out when empty, so
 * two teammates' sessions of one repository, or one person's in two clients, read apart. `base`
 * is the folder's name (or the client's own automatic name); it is shortened, never the person
 * or the harness, to keep the whole within 64 code points; the result goes through
 * `registeredName` like every registered name.
 *
 * @example defaultSessionName("dana", "api", "claude-code") === "dana-api-claude-code"
 */
export function defaultSessionName(person: string, base: string, harness: string): string {
  const fixed = [person, harness].filter((part) => part !== "");
  const room = NAME_CODEPOINTS - fixed.reduce((n, part) => n + [...part].length + 1, 0);
  const cut = [...registeredName(base)].slice(0, Math.max(room, 0)).join("");
  const parts = [person, cut, harness].filter((part) => part !== "");
  return registeredName(parts.join("-"));
}

/**
 * The person's part of `current` when it is the default name {@link defaultSessionName} gave for
 * `base` and `harness` (with or without a person), else `undefined`: how a later, better base
 * replaces a default name without asking git again.
 *
 * @example defaultNamePerson("dana-api-claude-code", "api", "claude-code") === "dana"
 */
export function defaultNamePerson(
  current: string,
  base: string,
  harness: string,
): string | undefined {
  for (const person of ["", ...candidatePeople(current)]) {
    if (defaultSessionName(person, base, harness) === current) return person;
  }
  return undefined;
}

/** The person part a default name can start with: everything before its first `-`. */
function candidatePeople(name: string): string[] {
  const dash = name.indexOf("-");
  return dash > 0 ? [name.slice(0, dash)] : [];
}
