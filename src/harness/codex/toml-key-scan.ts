/**
 * The key paths a TOML document defines, enough to tell whether Brigade's block can be appended
 * to a Codex `config.toml` without clashing (docs/49-codex.md "What install changes"). Not a TOML
 * parser: values are skipped, not read; what it cannot follow is refused.
 */

/** One definition: a table header (`[a.b]`), an array-of-tables header (`[[a.b]]`) or a key (`a.b = …`). */
export interface TomlDefinition {
  readonly kind: "table" | "array_table" | "key";
  /** The full dotted path, each part unquoted (a key's includes its table's). */
  readonly path: readonly string[];
}

/** Result of {@link scanTomlKeys}. */
export type TomlKeyScan =
  | { readonly ok: true; readonly definitions: readonly TomlDefinition[] }
  | { readonly ok: false };

const BARE = /^[A-Za-z0-9_-]+/;

/** Reads one key part at `text[i]`: bare, "basic" or 'literal'. */
function keyPart(text: string, i: number): { part: string; next: number } | undefined {
  const c = text[i];
  if (c === '"') {
    let out = "";
    let j = i + 1;
    while (j < text.length && text[j] !== '"') {
      if (text[j] === "\n") return undefined;
      if (text[j] === "\\") {
        const e = text[j + 1];
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          n: "\n",
          t: "\t",
          r: "\r",
          b: "\b",
          f: "\f",
        };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          j += 2;
          continue;
        }
        const hex = e === "u" ? 4 : e === "U" ? 8 : 0;
        const digits = text.slice(j + 2, j + 2 + hex);
        if (hex === 0 || !/^[0-9A-Fa-f]+$/.test(digits) || digits.length !== hex) return undefined;
        const code = Number.parseInt(digits, 16);
        if (code > 0x10ffff) return undefined;
        out += String.fromCodePoint(code);
        j += 2 + hex;
        continue;
      }
      out += text[j];
      j += 1;
    }
    return j < text.length ? { part: out, next: j + 1 } : undefined;
  }
  if (c === "'") {
    const end = text.indexOf("'", i + 1);
    if (end < 0 || text.slice(i + 1, end).includes("\n")) return undefined;
    return { part: text.slice(i + 1, end), next: end + 1 };
  }
  const bare = BARE.exec(text.slice(i));
  return bare === null ? undefined : { part: bare[0], next: i + bare[0].length };
}

function skipBlanks(text: string, i: number): number {
  let j = i;
  while (text[j] === " " || text[j] === "\t") j += 1;
  return j;
}

/** A dotted key at `i`, up to the first character that is not part of it. */
function dottedKey(text: string, i: number): { path: string[]; next: number } | undefined {
  const path: string[] = [];
  let j = skipBlanks(text, i);
  for (;;) {
    const read = keyPart(text, j);
    if (read === undefined) return undefined;
    path.push(read.part);
    j = skipBlanks(text, read.next);
    if (text[j] !== ".") return { path, next: j };
    j = skipBlanks(text, j + 1);
  }
}

/**
 * Skips one value starting at `i` (after `=` and blanks): strings of all four kinds (multi-line
 * ones across lines), arrays and inline tables (nested, across lines for arrays), and anything
 * else to the end of the line. Returns the index after it, or `undefined` for an unterminated
 * string or bracket. Keys inside an inline table are not reported: a key defined as an inline
 * table is reported as itself.
 */
function skipValue(text: string, i: number): number | undefined {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j];
    if (text.startsWith('"""', j) || text.startsWith("'''", j)) {
      const quote = text.slice(j, j + 3);
      let end = j + 3;
      for (;;) {
        end = text.indexOf(quote, end);
        if (end < 0) return undefined;
        if (quote === '"""' && isEscaped(text, end)) {
          end += 1;
          continue;
        }
        break;
      }
      // a closing run may hold up to two more quotes that belong to the string
      j = end + 3;
      while (text[j] === quote[0] && j < end + 5) j += 1;
      continue;
    }
    if (c === '"' || c === "'") {
      const read = keyPart(text, j);
      if (read === undefined) return undefined;
      j = read.next;
      continue;
    }
    if (c === "#") {
      const nl = text.indexOf("\n", j);
      j = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === "[" || c === "{") depth += 1;
    else if (c === "]" || c === "}") {
      depth -= 1;
      if (depth < 0) return undefined;
    } else if (c === "\n" && depth === 0) return j;
    j += 1;
  }
  return depth === 0 ? j : undefined;
}

function isEscaped(text: string, at: number): boolean {
  let slashes = 0;
  for (let k = at - 1; k >= 0 && text[k] === "\\"; k--) slashes += 1;
  return slashes % 2 === 1;
}

/**
 * Every table header, array-of-tables header and key `text` defines, in order, each with its full
 * path (a key's path starts with its table's). Comments, blank lines and values are skipped
 * (multi-line strings and arrays included). Anything it cannot follow — an unterminated string or
 * bracket, a line that is neither a header nor `key = value` — gives `{ ok: false }`. Never throws.
 *
 * @example scanTomlKeys('[mcp_servers.brigade]\ncommand = "b"\n') // ok, [table mcp_servers.brigade, key mcp_servers.brigade.command]
 */
export function scanTomlKeys(text: string): TomlKeyScan {
  const definitions: TomlDefinition[] = [];
  let table: string[] = [];
  let i = 0;
  while (i < text.length) {
    i = skipBlanks(text, i);
    const c = text[i];
    if (c === undefined) break;
    if (c === "\n" || c === "\r") {
      i += 1;
      continue;
    }
    if (c === "#") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === "[") {
      const array = text[i + 1] === "[";
      const key = dottedKey(text, i + (array ? 2 : 1));
      if (key === undefined) return { ok: false };
      const close = array ? "]]" : "]";
      if (!text.startsWith(close, key.next)) return { ok: false };
      table = key.path;
      definitions.push({ kind: array ? "array_table" : "table", path: key.path });
      i = key.next + close.length;
    } else {
      const key = dottedKey(text, i);
      if (key === undefined || text[key.next] !== "=") return { ok: false };
      definitions.push({ kind: "key", path: [...table, ...key.path] });
      const end = skipValue(text, skipBlanks(text, key.next + 1));
      if (end === undefined) return { ok: false };
      i = end;
    }
    // the rest of the line may only be blanks and a comment
    i = skipBlanks(text, i);
    if (text[i] === "#") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
    }
    if (i < text.length && text[i] !== "\n" && text[i] !== "\r") return { ok: false };
  }
  return { ok: true, definitions };
}
