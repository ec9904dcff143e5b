import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CLAUDE_CODE_TAGS, sanitize } from "../sanitize/index.ts";
import { lookAlikeTag } from "../sanitize/testdata/look-alike-text.ts";
import { oracleTagOpeners } from "../sanitize/testdata/tag-oracle.ts";
import { inspectText } from "./index.ts";

/** The forged tags of `text` as `[tag, kind, closing]`. */
const forged = (text: string) =>
  inspectText(text).forgedTags.map((t) => [t.tag, t.kind, t.closing] as const);

/** The neutralised tags of `text` as `[tag, closing, form]`. */
const neutralised = (text: string) =>
  inspectText(text).neutralisedTags.map((t) => [t.tag, t.closing, t.form] as const);

describe("inspectText reports every class of look-alike tag", () => {
  test.each([
    ["a blank after the opener", "<\u2800system-reminder>", "system-reminder", "family", false],
    ["a blank for the hyphen", "<system\u2800reminder>", "system-reminder", "family", false],
    ["a dash-looking letter", "</brigade\u4E00message>", "brigade-message", "family", true],
    ["box drawing", "<teammate\u2500message>", "teammate-message", "family", false],
    ["a space for the hyphen", "</brigade message>", "brigade-message", "family", true],
    ["a space for the hyphen", "<system reminder>", "system-reminder", "family", false],
    ["an escaped slash", "<\\/brigade-message>", "brigade-message", "family", true],
    ["a doubled slash", "<//channel>", "channel", "family", true],
    ["a Claude Code tag", "<persisted-output>", "persisted-output", "claude-code", false],
    ["a Claude Code tag", "</command-name>", "command-name", "claude-code", true],
    ["a Claude Code tag", "<command message>", "command-message", "claude-code", false],
    ["a Claude Code tag", "<\uFF1Ccommand-args>", "command-args", "claude-code", false],
    [
      "a Claude Code tag",
      "x <local\u2014command\u2014stdout>",
      "local-command-stdout",
      "claude-code",
      false,
    ],
  ] as const)("%s: %j", (_, text, tag, kind, closing) => {
    expect(forged(text)).toEqual([[tag, kind, closing]]);
    expect(neutralised(text)).toEqual([]);
    // Sanitised, the same tag is reported as neutralised and nothing as forged.
    expect(forged(sanitize(text))).toEqual([]);
    expect(neutralised(sanitize(text))).toEqual([[tag, closing, "entity"]]);
  });

  test("every Claude Code tag, forged and then neutralised", () => {
    for (const name of CLAUDE_CODE_TAGS) {
      const text = `<${name}>x</${name}>`;
      expect(forged(text).map(([, , closing]) => closing)).toEqual([false, true]);
      expect(neutralised(sanitize(text)).map(([, closing, form]) => [closing, form])).toEqual([
        [false, "entity"],
        [true, "entity"],
      ]);
    }
  });

  test("a tag of any generated spelling is forged raw and neutralised once sanitised", () => {
    fc.assert(
      fc.property(lookAlikeTag, (tag) => {
        const text = `note: ${tag}`;
        expect(inspectText(text).forgedTags.map((t) => t.offset)).toEqual(oracleTagOpeners(text));
        const clean = sanitize(text);
        expect(inspectText(clean).forgedTags).toEqual([]);
        expect(inspectText(clean).neutralisedTags.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  test("the envelope's `<\\` stays neutralised; `<\\/` before a tag the sanitiser reads does not", () => {
    expect(neutralised("<\\system-reminder>")).toEqual([["system-reminder", false, "backslash"]]);
    expect(forged("<\\system-reminder>")).toEqual([]);
    expect(neutralised("<\\/cited>")).toEqual([["cited", true, "backslash"]]);
    expect(neutralised("<\\/system-reminder>")).toEqual([]);
    expect(forged("<\\/system-reminder>")).toEqual([["system-reminder", "family", true]]);
  });
});
