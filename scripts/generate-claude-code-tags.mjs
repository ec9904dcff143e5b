#!/usr/bin/env node
// Generates src/formats/sanitize/claude-code-tags.ts: the tag names the real Claude Code client uses
// to mark its own content (docs/11-sanitizer.md), read from its executables. The executable embeds
// its JavaScript as Bun chunks, each starting with a `// Version: x.y.z` line. A tag-marking name is
// one the client itself treats as its own:
//   1. every name its tag guard lists (`tagNames:` in the guard's configuration: the system
//      reminder, the harness envelope and signal tags, the channel, the model layer);
//   2. every name in the tag-name lists of the chunk that declares "command-name" (the lists the
//      client neutralises in hook and notification text), where a list counts when all of its
//      members are tag-shaped and one of them is a name of 1;
//   3. every name with a `-` or `_` that the client writes both as a whole opener literal
//      ("<name>") and as a whole closer literal ("</name>"): content it wraps itself.
// Usage: node scripts/generate-claude-code-tags.mjs EXECUTABLE...         (writes the list: the
//          union over the executables given; pass the pinned and the newest client)
//        node scripts/generate-claude-code-tags.mjs --check EXECUTABLE     (exit 1 when the
//          executable marks content with a name the committed list lacks)
//        node scripts/generate-claude-code-tags.mjs --print EXECUTABLE     (the names, as JSON)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(root, "src/formats/sanitize/claude-code-tags.ts");

/** A tag name: lower-case letters and digits, words joined by `-` or `_`. */
const TAG_NAME = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
const IDENT = "[A-Za-z_$][\\w$]*";
const VERSION_LINE = "\n// Version: ";

/** Text of `buffer` between two byte offsets (the client's code is ASCII where it matters). */
const text = (buffer, from, to) => buffer.subarray(from, to).toString("latin1");

/** Every offset of `needle` in `buffer`. */
function offsetsOf(buffer, needle) {
  const found = [];
  for (let i = buffer.indexOf(needle); i !== -1; i = buffer.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** The client's version, from the first chunk header. */
function versionOf(buffer) {
  const at = buffer.indexOf(VERSION_LINE);
  if (at === -1) throw new Error("no `// Version:` chunk header: not a Claude Code executable?");
  const match = /^\d+\.\d+\.\d+/.exec(text(buffer, at + VERSION_LINE.length, at + 40));
  if (match === null) throw new Error("unreadable `// Version:` chunk header");
  return match[0];
}

/** The chunk (text) that holds byte offset `at`. */
function chunkAround(buffer, at) {
  const start = buffer.lastIndexOf(VERSION_LINE, at);
  const end = buffer.indexOf(VERSION_LINE, at);
  return text(buffer, start === -1 ? 0 : start, end === -1 ? buffer.length : end);
}

/** `name="value"` declarations of string constants in `code`, by name (all values seen). */
function stringDeclarations(code) {
  const map = new Map();
  const re = new RegExp(`(?:\\bvar |\\blet |\\bconst |,)(${IDENT})="([^"\\\\]*)"`, "g");
  for (const [, name, value] of code.matchAll(re)) {
    const values = map.get(name) ?? new Set();
    values.add(value);
    map.set(name, values);
  }
  return map;
}

/** `name=[…]` declarations in `code` whose elements are identifiers, spreads or strings. */
function arrayDeclarations(code) {
  const map = new Map();
  const element = `(?:\\.\\.\\.)?${IDENT}|"[^"\\\\]*"`;
  const re = new RegExp(
    `(?:\\bvar |\\blet |\\bconst |,)(${IDENT})=\\[((?:${element})(?:,(?:${element}))*)\\]`,
    "g",
  );
  for (const [, name, body] of code.matchAll(re)) map.set(name, body.split(","));
  return map;
}

/** A chunk's own declarations, read once per chunk. */
const chunks = new Map();

/** The declarations of the chunk that holds byte offset `at`. */
function scopeAt(buffer, at) {
  const start = buffer.lastIndexOf(VERSION_LINE, at);
  let scope = chunks.get(start);
  if (scope === undefined) {
    const code = chunkAround(buffer, at);
    scope = { strings: stringDeclarations(code), arrays: arrayDeclarations(code) };
    chunks.set(start, scope);
  }
  return scope;
}

/**
 * Where `name` is declared with a value that starts with `opening` (`"` or `[`), anywhere in the
 * executable: the chunk imports it from there. Null unless exactly one chunk declares it so.
 */
function declarationOf(buffer, name, opening) {
  const found = new Set();
  for (const at of offsetsOf(buffer, `${name}=${opening}`)) {
    if (/(?:var |let |const |,)$/.test(text(buffer, at - 6, at))) {
      found.add(buffer.lastIndexOf(VERSION_LINE, at));
    }
  }
  return found.size === 1 ? [...found][0] + 1 : null;
}

/**
 * Resolves the elements of a list in the scope of the chunk at `at`: a string literal is itself,
 * an identifier is the string its chunk declares (or the one chunk that does, which it imports
 * from), a spread is such a list. Returns null when an element does not resolve to a tag name.
 */
function resolveList(buffer, at, elements, depth = 0) {
  if (depth > 8) return null;
  const scope = scopeAt(buffer, at);
  const names = [];
  for (const element of elements) {
    if (element.startsWith('"')) {
      names.push(element.slice(1, -1));
      continue;
    }
    const spread = element.startsWith("...");
    const name = spread ? element.slice(3) : element;
    const own = spread ? scope.arrays.get(name) : scope.strings.get(name);
    const home = own === undefined ? declarationOf(buffer, name, spread ? "[" : '"') : at;
    if (home === null) return null;
    const declared = spread
      ? scopeAt(buffer, home).arrays.get(name)
      : scopeAt(buffer, home).strings.get(name);
    if (declared === undefined) return null;
    if (spread) {
      const inner = resolveList(buffer, home, declared, depth + 1);
      if (inner === null) return null;
      names.push(...inner);
    } else {
      if (declared.size !== 1) return null;
      names.push([...declared][0]);
    }
  }
  return names.every((name) => TAG_NAME.test(name)) ? names : null;
}

/** Source 1: the names of the tag guard's `tagNames:` entries. */
function guardNames(buffer) {
  const names = new Set();
  const re = new RegExp(`^tagNames:(\\[[^\\]]*\\]|${IDENT})\\}`);
  for (const at of offsetsOf(buffer, "tagNames:")) {
    const match = re.exec(text(buffer, at, at + 400));
    if (match === null) continue;
    const source = match[1];
    const elements = source.startsWith("[") ? source.slice(1, -1).split(",") : [`...${source}`];
    const resolved = resolveList(buffer, at, elements);
    if (resolved === null) throw new Error(`cannot resolve the guard list tagNames:${source}`);
    for (const name of resolved) names.add(name);
  }
  return names;
}

/** Source 2: the tag-name lists of the chunk that declares "command-name". */
function chunkListNames(buffer, known) {
  const anchor = offsetsOf(buffer, '="command-name"');
  if (anchor.length === 0) throw new Error('no chunk declares "command-name"');
  const names = new Set();
  for (const at of anchor) {
    for (const elements of scopeAt(buffer, at).arrays.values()) {
      const resolved = resolveList(buffer, at, elements);
      if (resolved === null || !resolved.some((name) => known.has(name))) continue;
      for (const name of resolved) names.add(name);
    }
  }
  return names;
}

/** Source 3: names with a `-` or `_` written as a whole opener literal and a whole closer literal. */
function wrapperNames(buffer) {
  const closers = new Set();
  for (const at of offsetsOf(buffer, "</")) {
    const quote = buffer[at - 1];
    if (quote !== 0x22 && quote !== 0x27 && quote !== 0x60) continue;
    const match = /^<\/([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)>(.)/.exec(text(buffer, at, at + 80));
    if (match !== null && match[2].charCodeAt(0) === quote) closers.add(match[1]);
  }
  const names = new Set();
  for (const name of closers) {
    for (const quote of ['"', "'", "`"]) {
      if (buffer.indexOf(`${quote}<${name}>${quote}`) !== -1) names.add(name);
    }
  }
  return names;
}

/** Every tag-marking name of one executable, sorted, and its version. */
function readExecutable(path) {
  const buffer = readFileSync(path);
  const guard = guardNames(buffer);
  if (!guard.has("system-reminder") || guard.size < 20) {
    throw new Error(`the tag guard of ${path} lists ${guard.size} names: its layout changed`);
  }
  const names = new Set([...guard, ...chunkListNames(buffer, guard), ...wrapperNames(buffer)]);
  return { version: versionOf(buffer), names: [...names].sort() };
}

/** The names of the committed list. */
function committedNames() {
  const source = readFileSync(out, "utf8");
  return new Set([...source.matchAll(/^ {2}"([a-z0-9_-]+)",$/gm)].map((m) => m[1]));
}

const args = process.argv.slice(2);
if (args[0] === "--check" || args[0] === "--print") {
  const read = readExecutable(args[1] ?? "");
  if (args[0] === "--print") {
    console.log(JSON.stringify(read));
  } else {
    const committed = committedNames();
    const missing = read.names.filter((name) => !committed.has(name));
    if (missing.length > 0) {
      console.error(
        `Claude Code ${read.version} marks its content with tags claude-code-tags.ts lacks: ${missing.join(" ")}\n` +
          "run node scripts/generate-claude-code-tags.mjs PINNED_EXECUTABLE NEWEST_EXECUTABLE",
      );
      process.exit(1);
    }
    console.log(
      `claude-code-tags.ts covers the ${read.names.length} tags of Claude Code ${read.version}`,
    );
  }
} else {
  if (args.length === 0) throw new Error("usage: generate-claude-code-tags.mjs EXECUTABLE...");
  const reads = args.map(readExecutable);
  const names = [...new Set(reads.flatMap((r) => r.names))].sort();
  const versions = reads.map((r) => r.version).join(", ");
  const source = `// GENERATED by scripts/generate-claude-code-tags.mjs from Claude Code ${versions}.
// Do not edit; regenerate with the pinned and the newest client.

/** The Claude Code versions {@link CLAUDE_CODE_TAGS} was read from. */
export const CLAUDE_CODE_TAGS_READ_FROM: readonly string[] = [${reads.map((r) => JSON.stringify(r.version)).join(", ")}];

/**
 * The tag names the Claude Code client uses to mark its own content (its tag guard's lists, the
 * lists it neutralises in hook and notification text, and the tags it wraps content in), as the
 * client spells them, sorted. ${names.length} names.
 *
 * @example CLAUDE_CODE_TAGS.includes("command-name") === true
 */
export const CLAUDE_CODE_TAGS: readonly string[] = [
${names.map((name) => `  ${JSON.stringify(name)},`).join("\n")}
];
`;
  writeFileSync(out, source, "utf8");
  console.log(`wrote ${out}: ${names.length} names from Claude Code ${versions}`);
}
