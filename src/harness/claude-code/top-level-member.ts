/** A top-level member of a JSON object text: its key and where it starts and ends. */
interface MemberSpan {
  readonly key: string;
  /** Index of the key's opening quote. */
  readonly start: number;
  /** Index just past the value. */
  readonly end: number;
}

const SPACE = new Set([" ", "\n", "\r", "\t"]);

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && SPACE.has(text[i] ?? "")) i += 1;
  return i;
}

/** Index just past the string starting at `at` (a `"`), escapes honoured. */
function skipString(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else i += 1;
  }
  return -1;
}

/** Index just past the value starting at `at`: a string, an object or array (nested), a literal. */
function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return skipString(text, at);
  if (first === "{" || first === "[") {
    let depth = 0;
    let i = at;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = skipString(text, i);
        if (i < 0) return -1;
        continue;
      }
      if (c === "{" || c === "[") depth += 1;
      if (c === "}" || c === "]") {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
      i += 1;
    }
    return -1;
  }
  let i = at;
  while (i < text.length && !SPACE.has(text[i] ?? "") && !",}]".includes(text[i] ?? "")) i += 1;
  return i === at ? -1 : i;
}

/** The top-level members of `text`, which must be one JSON object; `undefined` otherwise. */
function topLevelMembers(
  text: string,
): { members: MemberSpan[]; open: number; close: number } | undefined {
  const open = skipSpace(text, 0);
  if (text[open] !== "{") return undefined;
  const members: MemberSpan[] = [];
  let i = skipSpace(text, open + 1);
  if (text[i] === "}") return { members, open, close: i };
  for (;;) {
    if (text[i] !== '"') return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const key: unknown = JSON.parse(text.slice(i, keyEnd));
    let j = skipSpace(text, keyEnd);
    if (text[j] !== ":") return undefined;
    j = skipSpace(text, j + 1);
    const end = skipValue(text, j);
    if (end < 0 || typeof key !== "string") return undefined;
    members.push({ key, start: i, end });
    j = skipSpace(text, end);
    if (text[j] === "}") return { members, open, close: j };
    if (text[j] !== ",") return undefined;
    i = skipSpace(text, j + 1);
  }
}

/**
 * `text` (one JSON object, already known to parse) without its top-level member `key`, every other
 * byte kept: a member followed by another goes with its `,` and the whitespace up to the next key;
 * the last of several goes with the `,` and whitespace before it; a sole member goes with the
 * whitespace before it, so the exact inverse of an insertion as the first member (the
 * `claude_inbound_setting` way: after `{`, the whitespace that followed it repeated, and a `,`)
 * gives the original text back. `undefined` when `text` is not an object or has no such member.
 * The caller re-parses the result. Pure; never throws.
 *
 * @example removeTopLevelMember('{\n  "a": 1,\n  "b": 2\n}', "a") === '{\n  "b": 2\n}'
 */
export function removeTopLevelMember(text: string, key: string): string | undefined {
  let found: ReturnType<typeof topLevelMembers>;
  try {
    found = topLevelMembers(text);
  } catch {
    return undefined;
  }
  if (found === undefined) return undefined;
  const { members, open } = found;
  const at = members.findIndex((member) => member.key === key);
  const member = members[at];
  if (member === undefined) return undefined;
  const next = members[at + 1];
  const previous = members[at - 1];
  if (next !== undefined) return text.slice(0, member.start) + text.slice(next.start);
  if (previous !== undefined) return text.slice(0, previous.end) + text.slice(member.end);
  return text.slice(0, open + 1) + text.slice(member.end);
}
