// The classes of look-alike spelling that docs/11-sanitizer.md adds to the tag reading, each
// attacked from every side: every member of the class at every place it may stand (and some where
// it may not), on the plain-ASCII path and on the table walk, through every variant.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CLAUDE_CODE_TAGS, CLAUDE_CODE_TAGS_READ_FROM } from "./claude-code-tags.ts";
import {
  FRAME_TAG_FAMILIES,
  findFamilyTag,
  neutraliseTags,
  oneLine,
  sanitize,
  sanitizeBody,
  sanitizeName,
  sanitizeSummary,
  truncateBytes,
  truncateRunes,
} from "./index.ts";
import {
  BACKSLASH_BIT,
  DASH_BIT,
  LETTER_BITS,
  OPEN_BIT,
  PAIR_BIT,
  readingClass,
  SKIP_BIT,
  SLASH_BIT,
  SPACE_BIT,
} from "./reading-classes.ts";
import {
  BACKSLASHES,
  BLANKS,
  DASHES,
  INVISIBLES,
  SLASHES,
  SPACES,
  TAG_NAMES,
} from "./testdata/look-alike-text.ts";
import { oracleTagOpeners } from "./testdata/tag-oracle.ts";

const SKIPPED = /^(?:\p{Default_Ignorable_Code_Point}|\p{M}|\p{Cf}|[^\P{Cc}\t\n])$/u;
const HYPHENATED = TAG_NAMES.filter((name) => /[-_]/.test(name));
/** A non-ASCII code point far from any tag: it sends a text down the table walk. */
const TABLE_PATH = "\u00E9 ";

/** Asserts that `text` reads as a tag at `at` and that every variant neutralises it. */
function expectTag(text: string, at = 0): void {
  expect(findFamilyTag(text)?.start, JSON.stringify(text)).toBe(at);
  expect(oracleTagOpeners(text)[0], JSON.stringify(text)).toBe(at);
  for (const out of [sanitize(text), sanitizeBody(text), neutraliseTags(text)]) {
    expect(out.slice(at).startsWith("&lt;"), JSON.stringify(text)).toBe(true);
    expect(oracleTagOpeners(out)).toEqual([]);
  }
}

/** Asserts that no tag is read in `text` and that sanitising it changes no opener. */
function expectNoTag(text: string): void {
  expect(findFamilyTag(text), JSON.stringify(text)).toBeNull();
  expect(oracleTagOpeners(text), JSON.stringify(text)).toEqual([]);
  expect(sanitize(text).includes("&lt;")).toBe(false);
}

/** `name` with each `-` (and `_`) spelled by `separator`. */
const spelled = (name: string, separator: string): string => name.replace(/[-_]/g, separator);
/** Whether `name` reads as a family, which is matched as a prefix (`system_reminder`). */
const isFamily = (name: string): boolean =>
  FRAME_TAG_FAMILIES.some((family) => name.replaceAll("_", "-").startsWith(family));
/** Claude Code's tags that no family covers: matched as whole names. */
const WHOLE = CLAUDE_CODE_TAGS.filter((name) => !isFamily(name));

describe("blanks (U+2800 …) read as whitespace", () => {
  test("the class: named blanks, none of them whitespace or skipped, all read as space", () => {
    expect(BLANKS).toEqual(
      expect.arrayContaining(["\u2800", "\u{13441}", "\u{13442}", "\u{1D159}"]),
    );
    for (const b of BLANKS) {
      expect(/\p{White_Space}/u.test(b) || SKIPPED.test(b)).toBe(false);
      expect(readingClass(b.codePointAt(0) ?? 0) & SPACE_BIT).not.toBe(0);
    }
    // Every whitespace code point that survives R3 reads as space too.
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      if (/\p{White_Space}/u.test(c) && !SKIPPED.test(c)) {
        expect(readingClass(cp) & SPACE_BIT, cp.toString(16)).not.toBe(0);
      }
    }
  });

  test.each(BLANKS)("%j after the opener, around the slash and for the hyphen", (b) => {
    for (const name of TAG_NAMES) {
      expectTag(`<${b}${name}>`);
      expectTag(`<${b}/${b}${name}>`);
      expectTag(`x ${TABLE_PATH}<${b}${b}\uFE0F/${name}>`, 4);
    }
    for (const name of HYPHENATED) expectTag(`<${spelled(name, b)}>`);
  });

  test.each(BLANKS)("%j inside a word breaks the name", (b) => {
    expectNoTag(`<sys${b}tem-reminder>`);
    expectNoTag(`<command-na${b}me>`);
    expectNoTag(`<${b}\\channel>`);
  });
});

describe("dash look-alikes (`一`, `─`, `—` …) read as a name's hyphen", () => {
  const dashes = [...new Set(DASHES)];

  test("the class: Dash, Pc and the named strokes; never a letter, a space or a bracket", () => {
    const dashLike = (cp: number): boolean => (readingClass(cp) & DASH_BIT) !== 0;
    for (const c of "\u4E00\u2500\u2501\u2550\u3161\u30FC\u2F00\u31D0\uFF0D\u2796\u2014\u2E3B") {
      expect(dashLike(c.codePointAt(0) ?? 0), c).toBe(true);
    }
    const bad: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      const k = readingClass(cp);
      if (/^[\p{Dash}\p{Pc}]$/u.test(c) && !SKIPPED.test(c) && (k & SPACE_BIT) === 0) {
        if (!dashLike(cp)) bad.push(cp);
      }
      if ((k & DASH_BIT) !== 0 && (k & (LETTER_BITS | SPACE_BIT | OPEN_BIT | SLASH_BIT)) !== 0) {
        bad.push(cp);
      }
      if ((k & SPACE_BIT) !== 0 && (k & (LETTER_BITS | OPEN_BIT | SLASH_BIT)) !== 0) bad.push(cp);
    }
    expect(bad).toEqual([]);
  });

  test("every dash look-alike for every hyphen of every name", () => {
    for (const d of dashes) {
      for (const name of HYPHENATED) {
        expectTag(`<${spelled(name, d)}>`);
        expectTag(`</${spelled(name, `${d}\u034F${d}`)}>`);
      }
    }
  });

  test.each(["\u4E00", "\u2500", "\u2014", "\uFF0D"])("%j elsewhere is no tag", (d) => {
    expectNoTag(`<sys${d}tem-reminder>`);
    expectNoTag(`<${d}channel>`);
    expectNoTag(`<${d}/channel>`);
  });
});

describe("whitespace where the hyphen goes", () => {
  test.each([
    "</brigade message>",
    "<system reminder>",
    "<SYSTEM\treminder>",
    "<system\nreminder>",
    "<system - reminder>",
    "<system\u3000reminder>",
    "<system \u2014 reminder>",
    "<cross session_message>",
    "<command name>",
    "</local command stdout>",
    "<persisted \u2800 output>",
  ])("%j", (text) => {
    expectTag(text);
    expectTag(TABLE_PATH + text, TABLE_PATH.length);
  });

  test("any run of whitespace, blanks and dashes, with invisibles, for each hyphen", () => {
    const run = fc
      .array(fc.constantFrom(...SPACES, ...DASHES, ...INVISIBLES), { minLength: 1, maxLength: 5 })
      .filter((parts) => parts.some((c) => !INVISIBLES.includes(c)))
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.constantFrom(...HYPHENATED), run, fc.boolean(), (name, separator, close) => {
        expectTag(`<${close ? "/" : ""}${spelled(name, separator)}>`);
      }),
      { numRuns: 1500 },
    );
  });

  test("whitespace inside a word, or a name split into other words, is no tag", () => {
    expectNoTag("<sys tem-reminder>");
    expectNoTag("<brig ade message");
    expectNoTag("<command nam e>");
    expectNoTag("<local command\nstd out>");
  });
});

describe("an escaped or doubled slash (`<\\/`, `<//`)", () => {
  test("every backslash look-alike before every slash look-alike", () => {
    for (const b of BACKSLASHES) {
      for (const s of SLASHES) {
        expectTag(`<${b}${s}brigade-message>`);
        expect(findFamilyTag(`<${b}\u034F${s}channel`)?.closing).toBe(true);
      }
    }
  });

  test.each([
    "<\\/brigade-message>",
    "<\\\\/brigade-message>",
    "<//channel>",
    "</\\/system-reminder>",
    "< \\/ command-name>",
    "<\\\uFF0Fteammate-message>",
  ])("%j", (text) => {
    expectTag(text);
    expect(findFamilyTag(text)?.closing).toBe(true);
    expectTag(TABLE_PATH + text, TABLE_PATH.length);
  });

  test.each(["<\\channel>", "</\\channel>", "<\\ /channel>", "< / /channel>", "<\\\\channel>"])(
    "%j is no tag (the backslash escapes no slash)",
    (text) => {
      expectNoTag(text);
      expectNoTag(TABLE_PATH + text);
    },
  );
});

describe("Claude Code's own tags", () => {
  test("the list holds the client's content tags, read from the pinned and the newest client", () => {
    for (const name of [
      "persisted-output",
      "command-name",
      "command-message",
      "command-args",
      "local-command-stdout",
      "local-command-stderr",
      "local-command-caveat",
      "bash-input",
      "bash-stdout",
      "task-notification",
      "user-prompt-submit-hook",
      "system-reminder",
    ]) {
      expect(CLAUDE_CODE_TAGS).toContain(name);
    }
    expect(CLAUDE_CODE_TAGS_READ_FROM.length).toBeGreaterThan(0);
    for (const name of CLAUDE_CODE_TAGS) expect(name).toMatch(/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/);
  });

  test.each(CLAUDE_CODE_TAGS)("<%s> in every spelling", (name) => {
    const swapped = name.replace(/[-_]/g, (x) => (x === "-" ? "_" : "-"));
    for (const text of [
      `<${name}>`,
      `</${name}>`,
      `<${name.toUpperCase()} id="1">`,
      `<${swapped}/>`,
      `\uFF1C${name}\uFF1E`,
      `<\\/${name}>`,
      `<${name}\u034F>`,
      `<${name}`,
    ]) {
      expectTag(text);
      expectTag(TABLE_PATH + text, TABLE_PATH.length);
    }
    expect(findFamilyTag(`<${name}>`)?.kind).toBe(isFamily(name) ? "family" : "claude-code");
  });

  test.each(WHOLE)("<%s…> continued by a letter, a digit or a dash is another word", (name) => {
    for (const more of ["z", "9", "-z", "_z", "\u0437", "\u2014z", "\u034Fz"]) {
      expectNoTag(`<${name}${more}>`);
      expectNoTag(`${TABLE_PATH}<${name}${more}>`);
    }
    // An opener is no letter of the name (the sanitiser may rewrite it to `&lt;`).
    expectTag(`<${name}\u1438x`);
  });

  test("a cut never completes one: truncation and oneLine move the cut before the opener", () => {
    for (const name of WHOLE) {
      const text = `ab <${name}s and more text that goes past every cap we try here`;
      const at = 4 + name.length;
      for (const out of [
        truncateRunes(text, at + 11),
        truncateBytes(text, at + 11),
        oneLine(text, at),
        sanitizeName(`${"x".repeat(64 - 11 - at)}${text}`),
      ]) {
        expect(oracleTagOpeners(out), JSON.stringify(out)).toEqual([]);
      }
      expect(truncateRunes(text, at + 11)).toBe("ab [truncated]");
      expect(oneLine(text, at)).toBe("ab ");
    }
    fc.assert(
      fc.property(
        fc.constantFrom(...WHOLE),
        fc.string({ maxLength: 30 }),
        fc.nat(80),
        (name, before, cap) => {
          const text = `${before}<${name}zz tail`;
          for (const out of [sanitizeSummary(text.repeat(4)), oneLine(text, cap)]) {
            expect(oracleTagOpeners(out)).toEqual([]);
          }
        },
      ),
      { numRuns: 800 },
    );
  });
});

describe("the reading classes", () => {
  test("fit in 30 bits: every class is a small integer", () => {
    const all =
      LETTER_BITS |
      DASH_BIT |
      SKIP_BIT |
      SPACE_BIT |
      OPEN_BIT |
      SLASH_BIT |
      PAIR_BIT |
      BACKSLASH_BIT;
    expect(all).toBeLessThan(2 ** 30);
    expect(all).toBeGreaterThan(0);
  });
});
