import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import {
  ERROR_CODES,
  ERROR_EXIT_STATUS,
  ERROR_MESSAGES,
  INVALID_INPUT_MESSAGES,
  RATE_LIMITED_MESSAGES,
  RETRYABLE_ERROR_CODES,
  USAGE_MESSAGES,
} from "../src/protocol/index.ts";
import { httpStatusFor } from "../src/server/http-status.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const docPath = join(root, "docs", "errors.md");

// ---------------------------------------------------------------------------------------------
// The doc parser: `## … \`ARRAY_NAME\` … \`src/…\`` headings, each followed by one Markdown table
// whose first column holds one backticked code per row.
// ---------------------------------------------------------------------------------------------

/** One `##` section of docs/errors.md. */
interface DocSection {
  /** The heading text after `## `. */
  readonly title: string;
  /** The first backticked UPPER_CASE name in the heading, if any. */
  readonly arrayName: string | undefined;
  /** The first backticked `src/…` path in the heading, if any. */
  readonly file: string | undefined;
  /** The table's header cells (empty when the section has no table). */
  readonly header: readonly string[];
  /** The table's data rows: the code from the first cell, and every cell as written. */
  readonly rows: readonly { readonly code: string; readonly cells: readonly string[] }[];
  /** Rows that do not fit the format (wrong cell count, first cell not one backticked code). */
  readonly problems: readonly string[];
}

const HEADING = /^## (.+)$/;
const ARRAY_IN_HEADING = /`([A-Z][A-Z0-9_]*)`/;
const FILE_IN_HEADING = /`(src\/[^`]+\.ts)`/;
const CODE_CELL = /^`([^`]+)`$/;
const SEPARATOR_CELL = /^:?-{3,}:?$/;
const CELL_SPLIT = /(?<!\\)\|/;

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(CELL_SPLIT).map((cell) => cell.trim());
}

/** Splits docs/errors.md into its `##` sections and reads each section's first table. */
function parseErrorsDoc(markdown: string): DocSection[] {
  const sections: DocSection[] = [];
  let current:
    | {
        title: string;
        header: string[];
        rows: { code: string; cells: string[] }[];
        problems: string[];
        tableDone: boolean;
        inTable: boolean;
      }
    | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    sections.push({
      title: current.title,
      arrayName: ARRAY_IN_HEADING.exec(current.title)?.[1],
      file: FILE_IN_HEADING.exec(current.title)?.[1],
      header: current.header,
      rows: current.rows,
      problems: current.problems,
    });
  };
  for (const line of markdown.split("\n")) {
    const heading = HEADING.exec(line);
    if (heading !== null) {
      flush();
      const title = heading[1] as string;
      current = { title, header: [], rows: [], problems: [], tableDone: false, inTable: false };
      continue;
    }
    if (current === undefined || current.tableDone) continue;
    if (!line.trimStart().startsWith("|")) {
      if (current.inTable) current.tableDone = true;
      continue;
    }
    const cells = splitRow(line);
    if (!current.inTable) {
      current.inTable = true;
      current.header = cells;
      continue;
    }
    if (cells.every((cell) => SEPARATOR_CELL.test(cell))) continue;
    const code = CODE_CELL.exec(cells[0] ?? "")?.[1];
    if (code === undefined) {
      current.problems.push(`row without a backticked code: ${line}`);
      continue;
    }
    if (cells.length !== current.header.length) {
      current.problems.push(`${code}: ${cells.length} cells, header has ${current.header.length}`);
    }
    if (cells.some((cell) => cell === "")) current.problems.push(`${code}: an empty cell`);
    current.rows.push({ code, cells });
  }
  flush();
  return sections;
}

/** How a section's codes differ from the array it documents. */
interface CodeDiff {
  readonly missing: readonly string[];
  readonly extra: readonly string[];
  readonly duplicated: readonly string[];
}

function compareCodes(section: DocSection, expected: readonly string[]): CodeDiff {
  const listed = section.rows.map((row) => row.code);
  const listedSet = new Set(listed);
  const expectedSet = new Set(expected);
  return {
    missing: expected.filter((code) => !listedSet.has(code)),
    extra: listed.filter((code) => !expectedSet.has(code)),
    duplicated: listed.filter((code, index) => listed.indexOf(code) !== index),
  };
}

/** The index of the header cell named `name` (case-insensitive), or -1. */
function column(section: DocSection, name: string): number {
  return section.header.findIndex((cell) => cell.toLowerCase() === name.toLowerCase());
}

/** The cell of `row` under header `name`, with surrounding backticks removed. */
function cellOf(section: DocSection, code: string, name: string): string | undefined {
  const index = column(section, name);
  const row = section.rows.find((r) => r.code === code);
  const cell = index === -1 ? undefined : row?.cells[index];
  return cell?.replace(/^`(.*)`$/, "$1");
}

// ---------------------------------------------------------------------------------------------
// The source scanners: exported code arrays, and code / reason literals written without one.
// ---------------------------------------------------------------------------------------------

/** Every non-test TypeScript file below `dir`, as absolute paths. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "testdata" && name !== "node_modules") out.push(...sources(path));
    } else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) {
      out.push(path);
    }
  }
  return out;
}

const EXPORTED_ARRAY =
  /^export const ([A-Z][A-Z0-9_]*_(?:CODES|REASONS|REFUSALS|FAILURES|DETAILS|ISSUES))\b/gm;

/** Names of exported code / reason arrays declared in `text`. */
function exportedArrayNames(text: string): string[] {
  return [...text.matchAll(EXPORTED_ARRAY)].map((match) => match[1] as string);
}

const COMMENT_LINE = /^\s*(?:\*|\/\/|\/\*)/;
const REASON_EXPRESSION = /\breason:\s*([^,}\n]*)/g;
const CODE_LITERAL = /\bcode\s*[:=]\s*"([^"]*)"/g;
const STRING_LITERAL = /"([^"\\]*)"/g;
/** A code-like token; prose (a human-readable reason with spaces) is not a code. */
const TOKEN = /^[A-Za-z][A-Za-z0-9_.]*$/;

/** Code-like string literals written as a `reason:` value or a `code` value in `text`. */
function emittedLiterals(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split("\n")) {
    if (COMMENT_LINE.test(line)) continue;
    for (const match of line.matchAll(REASON_EXPRESSION)) {
      for (const literal of (match[1] as string).matchAll(STRING_LITERAL)) {
        found.push(literal[1] as string);
      }
    }
    for (const match of line.matchAll(CODE_LITERAL)) found.push(match[1] as string);
  }
  return found.filter((token) => TOKEN.test(token));
}

/** A discovered array: its name and the repository-relative file that exports it. */
interface DiscoveredArray {
  readonly name: string;
  readonly file: string;
}

const sourceFiles = sources(join(root, "src"));
const sourceText = new Map(
  sourceFiles.map((path) => [
    relative(root, path).split(sep).join("/"),
    readFileSync(path, "utf8"),
  ]),
);
const discovered: DiscoveredArray[] = [...sourceText].flatMap(([file, text]) =>
  exportedArrayNames(text).map((name) => ({ name, file })),
);

/** Arrays documented as a column of another section rather than as a section of their own. */
const COLUMN_ARRAYS: Readonly<Record<string, string>> = {
  RETRYABLE_ERROR_CODES: "ERROR_CODES",
};

/** Sections whose `Message` column must equal a fixed-message map, cell by cell. */
const MESSAGE_MAPS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ERROR_CODES: ERROR_MESSAGES,
  INVALID_INPUT_REASONS: INVALID_INPUT_MESSAGES,
  USAGE_REASONS: USAGE_MESSAGES,
  RATE_LIMITED_REASONS: RATE_LIMITED_MESSAGES,
};

const UNARRAYED_TITLE = "emitted without an array";

async function arrayValues(entry: DiscoveredArray): Promise<readonly string[]> {
  const module = (await import(pathToFileURL(join(root, entry.file)).href)) as Record<
    string,
    unknown
  >;
  const value = module[entry.name];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new Error(`${entry.file} exports ${entry.name} but not as an array of strings`);
  }
  return value;
}

const doc = parseErrorsDoc(readFileSync(docPath, "utf8"));
const sectionsByArray = new Map<string, DocSection[]>();
for (const section of doc) {
  if (section.arrayName === undefined) continue;
  const list = sectionsByArray.get(section.arrayName) ?? [];
  list.push(section);
  sectionsByArray.set(section.arrayName, list);
}
const unarrayed = doc.find((section) => section.title.includes(UNARRAYED_TITLE));

// ---------------------------------------------------------------------------------------------

describe("the checker itself (positive controls)", () => {
  const inline = [
    "## `DEMO_REASONS` — `src/demo.ts`",
    "",
    "| Reason | Meaning |",
    "| --- | --- |",
    "| `alpha` | first |",
    "| `gamma` | not in the array |",
    "| `alpha` | listed twice |",
    "| beta | no backticks |",
    "",
    "## `OTHER_CODES` — `src/other.ts`",
    "",
    "| Code | Meaning |",
    "| --- | --- |",
    "| `x` | |",
  ].join("\n");
  const [demo, other] = parseErrorsDoc(inline);

  test("reads the array name, the file and the codes of each section", () => {
    expect(demo?.arrayName).toBe("DEMO_REASONS");
    expect(demo?.file).toBe("src/demo.ts");
    expect(other?.arrayName).toBe("OTHER_CODES");
    expect(demo?.rows.map((row) => row.code)).toEqual(["alpha", "gamma", "alpha"]);
  });

  test("a code missing from the doc, an extra one and a repeated one are all reported", () => {
    expect(compareCodes(demo as DocSection, ["alpha", "beta"])).toEqual({
      missing: ["beta"],
      extra: ["gamma"],
      duplicated: ["alpha"],
    });
  });

  test("a malformed row and an empty cell are reported as problems", () => {
    expect(demo?.problems).toEqual(["row without a backticked code: | beta | no backticks |"]);
    expect(other?.problems).toEqual(["x: an empty cell"]);
  });

  test("the source scanners find a new array and a literal reason, but not comments or prose", () => {
    const text = [
      "export const NEW_THING_REASONS = [",
      '  "a",',
      "] as const;",
      "export const NEW_THING_LIMIT = 3;",
      'export const TYPED_REFUSALS: readonly ["x"] = ["x"];',
      'const shaped = { ok: false, reason: flag ? "tok_one" : "tok_two" };',
      ' * reason: "in_a_comment"',
      'return { ok: false, reason: "some human prose" };',
      'readonly code = "class_code" as const;',
      'if (error.code === "compared_only") {}',
    ].join("\n");
    expect(exportedArrayNames(text)).toEqual(["NEW_THING_REASONS", "TYPED_REFUSALS"]);
    expect(emittedLiterals(text)).toEqual(["tok_one", "tok_two", "class_code"]);
  });
});

describe("docs/errors.md against the code", () => {
  test("the scan finds the arrays this doc is known to cover", () => {
    const names = discovered.map((entry) => entry.name);
    for (const known of [
      "ERROR_CODES",
      "RETRYABLE_ERROR_CODES",
      "INVALID_INPUT_REASONS",
      "STRICT_JSON_FAILURES",
      "NDJSON_LINE_ISSUES",
      "FRAME_PARSE_DETAILS",
      "CROSS_SESSION_ENVELOPE_REFUSALS",
    ]) {
      expect(names).toContain(known);
    }
    expect(new Set(names).size, "an array name is exported twice").toBe(names.length);
  });

  test("every section follows the table format", () => {
    for (const section of doc) {
      if (section.arrayName === undefined && section !== unarrayed) continue;
      expect(section.problems, section.title).toEqual([]);
      expect(section.rows.length, `${section.title}: no table rows`).toBeGreaterThan(0);
    }
  });

  test.each(discovered.filter((entry) => COLUMN_ARRAYS[entry.name] === undefined))(
    "$name ($file) has exactly one section, naming its file",
    ({ name, file }) => {
      const sections = sectionsByArray.get(name) ?? [];
      expect(sections.length, `docs/errors.md has ${sections.length} sections for ${name}`).toBe(1);
      expect(sections[0]?.file).toBe(file);
    },
  );

  test("every section names an array the code exports", () => {
    const names = new Set(discovered.map((entry) => entry.name));
    for (const name of sectionsByArray.keys())
      expect(names, `stale section ${name}`).toContain(name);
  });

  test.each(discovered.filter((entry) => COLUMN_ARRAYS[entry.name] === undefined))(
    "the $name section lists exactly the array's members",
    async (entry) => {
      const section = sectionsByArray.get(entry.name)?.[0];
      expect(section, `no section for ${entry.name}`).toBeDefined();
      expect(compareCodes(section as DocSection, await arrayValues(entry))).toEqual({
        missing: [],
        extra: [],
        duplicated: [],
      });
    },
  );

  test("ERROR_CODES: exit status, HTTP status and retryable columns match the code", () => {
    const section = sectionsByArray.get("ERROR_CODES")?.[0] as DocSection;
    expect(column(section, "Exit")).toBeGreaterThan(0);
    expect(column(section, "HTTP")).toBeGreaterThan(0);
    expect(column(section, "Retryable")).toBeGreaterThan(0);
    const retryable = new Set<string>(RETRYABLE_ERROR_CODES);
    for (const code of ERROR_CODES) {
      expect(cellOf(section, code, "Exit"), `${code} exit`).toBe(String(ERROR_EXIT_STATUS[code]));
      expect(cellOf(section, code, "HTTP"), `${code} HTTP`).toBe(String(httpStatusFor(code)));
      expect(cellOf(section, code, "Retryable"), `${code} retryable`).toBe(
        retryable.has(code) ? "yes" : "no",
      );
    }
  });

  test.each(Object.keys(MESSAGE_MAPS))("%s: the Message column is the fixed message", (name) => {
    const section = sectionsByArray.get(name)?.[0] as DocSection;
    const messages = MESSAGE_MAPS[name] as Readonly<Record<string, string>>;
    expect(column(section, "Message"), `${name} has no Message column`).toBeGreaterThan(0);
    for (const row of section.rows) {
      expect(cellOf(section, row.code, "Message"), row.code).toBe(messages[row.code]);
    }
  });

  test("codes and reasons emitted without an array: each is still a literal in its file", async () => {
    expect(unarrayed, `docs/errors.md has no "${UNARRAYED_TITLE}" section`).toBeDefined();
    const section = unarrayed as DocSection;
    expect(column(section, "File")).toBeGreaterThan(0);
    const inArrays = new Set((await Promise.all(discovered.map(arrayValues))).flat());
    for (const row of section.rows) {
      const file = cellOf(section, row.code, "File") as string;
      const text = sourceText.get(file);
      expect(text, `${row.code}: ${file} is not a source file`).toBeDefined();
      expect(
        emittedLiterals(text as string),
        `${row.code} is no longer emitted in ${file}`,
      ).toContain(row.code);
      expect(inArrays.has(row.code), `${row.code} is in an array now: move its row`).toBe(false);
    }
  });

  test("every code or reason literal in src/ is in an array or in the table without one", async () => {
    const known = new Set((await Promise.all(discovered.map(arrayValues))).flat());
    for (const row of unarrayed?.rows ?? []) known.add(row.code);
    const unknown: string[] = [];
    for (const [file, text] of sourceText) {
      for (const literal of emittedLiterals(text)) {
        if (!known.has(literal)) unknown.push(`${file}: ${literal}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
