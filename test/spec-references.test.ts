// Every spec reference in the repository resolves inside it: the written form is
// `docs/spec/<file>.md §N.M` (a list or range right after it may continue bare: `§7.2–§7.4`,
// `§4, §5`), the file exists and the section has a heading there. Nothing points outside the
// repository (the sibling folder the spec, the design notes and the corpus once came from), so a
// clone resolves every reference.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------------------------------------
// What is scanned: source, tests, scripts and docs; never generated bundles, goldens or the spec.
// ---------------------------------------------------------------------------------------------

const ROOTS = ["src", "test", "bench", "scripts", "plugin", "docs", "README.md"];
/** Folder names never scanned: goldens and test data hold § as data, not as references. */
const SKIPPED_NAMES = new Set(["node_modules", "dist", "testdata", ".git"]);
/** Paths never scanned: the regenerated bundle, the spec itself, benchmark output, this file
 * (its fixtures quote the forms it rejects). */
const SKIPPED_PATHS = new Set([
  "plugin/dist",
  "docs/spec",
  "bench/results",
  "test/spec-references.test.ts",
]);
const CODE_FILE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** Repository-relative paths of every scanned file, sorted. */
function scannedFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = join(root, rel);
    if (SKIPPED_PATHS.has(rel) || !existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      if (SKIPPED_NAMES.has(rel.split("/").pop() ?? "")) return;
      for (const name of readdirSync(abs).sort()) walk(`${rel}/${name}`);
    } else if (CODE_FILE.test(rel) || rel.endsWith(".md") || rel.startsWith("plugin/bin/")) {
      out.push(rel);
    }
  };
  for (const start of ROOTS) walk(start);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The checker (pure: files and a reader in, problems out)
// ---------------------------------------------------------------------------------------------

/** One scanned file: its repository-relative path and its text. */
interface ScannedFile {
  readonly path: string;
  readonly text: string;
}

/** The sibling folder outside the repository that no reference may name, and the design file in it. */
const SIBLING = ["sha", "red"].join("");
const DESIGN_FILE = ["DESIGN", "md"].join(".");
/** Text that leads out of the repository: the sibling folder and the design file. */
const OUTSIDE = new RegExp(
  String.raw`(?:\.\./)+${SIBLING}\b|(?<![\w/.-])${SIBLING}/(?:spec|DESIGN|corpora)\b|\bDESIGN\.md\b`,
  "g",
);
/** A path to a repository doc (`docs/41-watcher.md`, `docs/spec/protocol.md`). */
const DOC_PATH = /(?<![\w/.-])docs\/[\w./-]+?\.md(?![\w-])/g;
/** A section sign with its number. */
const SECTION = /§(\d+(?:\.\d+)*)/g;
/** The resolvable form: a doc path and one space right before the §. */
const NAMED_BEFORE = /(?<![\w/.-])(docs\/[\w./-]+?\.md) $/;
/** `RFC 4648 §5`: a section of an outside standard, not of ours. */
const RFC_BEFORE = /RFC[ \t]+\d+[ \t]+$/;
/**
 * Between two § of one list or range (the second continues the first's file): an optional
 * annotation of the first (`item 4`, `step 4`, `(a)`, `` (`x`) ``, `E7`, `i`) and a separator.
 */
const CONTINUATION =
  /^[ \t]*(?:(?:\([^()§\n]{0,40}\)|items?[ \t]+\d+|steps?[ \t]+[\w–-]+|rules?[ \t]+[\w–-]+|E\d+|[a-z]|\([a-z0-9]\))[ \t]*)?(?:,[ \t]*(?:and[ \t]+|or[ \t]+)?|and[ \t]+|or[ \t]+|–|-|[ \t]*\/[ \t]*)$/;
/** A line break with the next line's comment prefix reads as one space between list items. */
const LINE_BREAK = /\n[ \t]*(?:\/\/|\*(?!\/)|#+)?[ \t]*/g;
/**
 * Product text (printed by the conformance suite, compared by its tests) that names a BAP/1
 * section by number alone; it resolves against the protocol spec and stays as it is.
 */
const PRODUCT_PHRASES: readonly { readonly phrase: string; readonly doc: string }[] = [
  { phrase: "§9 join-secret shape", doc: "docs/spec/protocol.md" },
  { phrase: "§7 makes 100 unacked impossible", doc: "docs/spec/protocol.md" },
];

/** A heading with a number: `## §2 Title`, `### §2.6 Title`, `## 2.6 Title`, `## 2. Title`. */
const HEADING = /^#{1,6}[ \t]+(?:§[ \t]?)?(\d+(?:\.\d+)*)\.?(?=[ \t]|$)/;
/** A top-level numbered item under a numbered heading counts as its subsection (`§6.13`). */
const NUMBERED_ITEM = /^(\d+)\.[ \t]/;
const FENCE = /^[ \t]*(?:```|~~~)/;

/** The section numbers a Markdown text defines (headings outside code fences, numbered items). */
function sectionNumbers(markdown: string): Set<string> {
  const numbers = new Set<string>();
  let current: string | undefined;
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = HEADING.exec(line);
    if (heading !== null) {
      current = heading[1] as string;
      numbers.add(current);
      continue;
    }
    const item = NUMBERED_ITEM.exec(line);
    if (item !== null && current !== undefined) numbers.add(`${current}.${item[1]}`);
  }
  return numbers;
}

/** 1-based line of offset `index` in `text`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Every broken reference in `files`, as `path:line: what`. `readDoc` returns a repository doc's
 * text, or `undefined` when the file does not exist.
 */
function referenceProblems(
  files: readonly ScannedFile[],
  readDoc: (path: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const sectionsCache = new Map<string, Set<string> | undefined>();
  const sectionsOf = (doc: string): Set<string> | undefined => {
    if (!sectionsCache.has(doc)) {
      const text = readDoc(doc);
      sectionsCache.set(doc, text === undefined ? undefined : sectionNumbers(text));
    }
    return sectionsCache.get(doc);
  };
  for (const { path, text } of files) {
    const at = (index: number): string => `${path}:${lineAt(text, index)}`;
    for (const match of text.matchAll(OUTSIDE)) {
      problems.push(`${at(match.index)}: points outside the repository (${match[0]})`);
    }
    for (const match of text.matchAll(DOC_PATH)) {
      if (readDoc(match[0]) === undefined) {
        problems.push(`${at(match.index)}: ${match[0]} does not exist`);
      }
    }
    let previous: { readonly end: number; readonly doc: string } | undefined;
    for (const match of text.matchAll(SECTION)) {
      const before = text.slice(Math.max(0, match.index - 200), match.index);
      if (RFC_BEFORE.test(before)) continue;
      const number = match[1] as string;
      const named = NAMED_BEFORE.exec(before)?.[1];
      const product = PRODUCT_PHRASES.find((p) => text.startsWith(p.phrase, match.index))?.doc;
      const gap = previous === undefined ? undefined : text.slice(previous.end, match.index);
      const continued =
        gap !== undefined && CONTINUATION.test(gap.replace(LINE_BREAK, " "))
          ? previous?.doc
          : undefined;
      const doc = named ?? product ?? continued;
      previous = undefined;
      if (doc === undefined) {
        problems.push(
          `${at(match.index)}: §${number} names no file (write docs/spec/<file>.md §N)`,
        );
        continue;
      }
      previous = { end: match.index + match[0].length, doc };
      const sections = sectionsOf(doc);
      if (sections === undefined) {
        problems.push(`${at(match.index)}: §${number} of ${doc}, which does not exist`);
      } else if (!sections.has(number)) {
        problems.push(`${at(match.index)}: ${doc} has no section §${number}`);
      }
    }
  }
  return problems;
}

/** Reads a repository doc by its repository-relative path; `undefined` when it is not a file. */
function readRepositoryDoc(path: string): string | undefined {
  const abs = join(root, path);
  return existsSync(abs) && statSync(abs).isFile() ? readFileSync(abs, "utf8") : undefined;
}

// ---------------------------------------------------------------------------------------------
// The repository
// ---------------------------------------------------------------------------------------------

describe("spec references in the repository", () => {
  const files = scannedFiles().map((path) => ({
    path,
    text: readFileSync(join(root, path), "utf8"),
  }));

  test("the scan sees the code and the docs, and they cite the spec", () => {
    const paths = new Set(files.map((file) => file.path));
    expect(paths.has("src/protocol/index.ts")).toBe(true);
    expect(paths.has("docs/errors.md")).toBe(true);
    const cited = files.filter((file) => file.text.includes("docs/spec/")).length;
    expect(cited).toBeGreaterThan(50);
  });

  test("every reference resolves to an existing file and section inside the repository", () => {
    expect(referenceProblems(files, readRepositoryDoc)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The checker's teeth, on fixtures
// ---------------------------------------------------------------------------------------------

describe("referenceProblems", () => {
  const protocol = [
    "# BAP/1",
    "## §3 Results",
    "### §3.3 Codes",
    "## 6. Semantics",
    "13. **Version negotiation.** …",
    "```",
    "## §99 inside a fence is no heading",
    "```",
  ].join("\n");
  const docs = new Map([
    ["docs/spec/protocol.md", protocol],
    ["docs/41-watcher.md", "# 41. The watcher"],
  ]);
  const check = (text: string, path = "src/a.ts"): string[] =>
    referenceProblems([{ path, text }], (doc) => docs.get(doc));

  test("a resolvable reference, its list and range, and a numbered item pass", () => {
    expect(
      check("// docs/spec/protocol.md §3.3, §6.13 and §3–§6 (see docs/41-watcher.md)"),
    ).toEqual([]);
    expect(check("/**\n * (docs/spec/protocol.md §3,\n * §6.13)\n */")).toEqual([]);
  });

  test("a missing section is caught, also inside a list or range", () => {
    expect(check("// docs/spec/protocol.md §3.4")).toEqual([
      "src/a.ts:1: docs/spec/protocol.md has no section §3.4",
    ]);
    expect(check("x\n// docs/spec/protocol.md §3–§7")).toEqual([
      "src/a.ts:2: docs/spec/protocol.md has no section §7",
    ]);
    expect(check("// docs/spec/protocol.md §99")).toEqual([
      "src/a.ts:1: docs/spec/protocol.md has no section §99",
    ]);
  });

  test("a missing file is caught", () => {
    expect(check("// docs/spec/formats.md §1.2 and docs/42-hooks.md")).toEqual([
      "src/a.ts:1: docs/spec/formats.md does not exist",
      "src/a.ts:1: docs/42-hooks.md does not exist",
      "src/a.ts:1: §1.2 of docs/spec/formats.md, which does not exist",
    ]);
  });

  test("a reference outside the repository is caught in every spelling", () => {
    // The outside spellings are assembled here, so this file holds none of them literally.
    const up = `../${SIBLING}`;
    const outside = [
      `// ${up}/spec/protocol.md`,
      `// \`${SIBLING}/spec/claude-code.md\``,
      `// ${DESIGN_FILE}`,
      `// resolve(root, "${up}/corpora/bipia")`,
      `// read from \`${up}\``,
    ].join("\n");
    expect(check(outside, "docs/x.md")).toEqual([
      `docs/x.md:1: points outside the repository (${up})`,
      `docs/x.md:2: points outside the repository (${SIBLING}/spec)`,
      `docs/x.md:3: points outside the repository (${DESIGN_FILE})`,
      `docs/x.md:4: points outside the repository (${up})`,
      `docs/x.md:5: points outside the repository (${up})`,
    ]);
  });

  test("a § that names no file is caught; an annotation or a sentence ends a list", () => {
    expect(check("// spec §3.3")).toEqual([
      "src/a.ts:1: §3.3 names no file (write docs/spec/<file>.md §N)",
    ]);
    expect(check("// protocol.md §3.3")).toEqual([
      "src/a.ts:1: §3.3 names no file (write docs/spec/<file>.md §N)",
    ]);
    expect(check("// docs/spec/protocol.md §3. Then §3.3")).toEqual([
      "src/a.ts:1: §3.3 names no file (write docs/spec/<file>.md §N)",
    ]);
  });

  test("product phrases resolve against the protocol spec; RFC sections are not ours", () => {
    expect(check('hits.push("a §9 join-secret shape"); // RFC 4648 §5')).toEqual([
      "src/a.ts:1: docs/spec/protocol.md has no section §9",
    ]);
  });

  test("every heading style of the spec defines its number", () => {
    const numbers = sectionNumbers(
      ["## §2 A", "### §2.6 B", "## 3.1 C", "## 4. D", "#### §5.1.2 E", "## Notes 7"].join("\n"),
    );
    expect([...numbers]).toEqual(["2", "2.6", "3.1", "4", "5.1.2"]);
  });
});
