import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { expectGolden, testdataDir } from "../../../test/support/golden.ts";
import { CROSS_SESSION_CLOSE_PATTERN } from "./escape-envelope-tag.ts";
import {
  CROSS_SESSION_CLASSIFIER_RULE,
  CROSS_SESSION_CODEC_ERROR_CODES,
  CROSS_SESSION_ENVELOPE_REFUSALS,
  CROSS_SESSION_MESSAGE_NOTICE,
  CROSS_SESSION_MESSAGE_TAG,
  CrossSessionCodecError,
  ENGINE_AUTHORITY_ENVELOPE_TAGS,
  isPermissionModeClass,
  neutralizePeerBody,
  PEER_HOP_CHAIN_CARRY_WINDOW,
  PERMISSION_MODE_CLASSES,
  parseCrossSessionEnvelope,
} from "./index.ts";

const dir = testdataDir(import.meta.url);

describe("docs/spec/cross-session.md §6.2 regex construction", () => {
  test("the close-only cross-session-message pattern has the spec's length and SHA-256", () => {
    const source = CROSS_SESSION_CLOSE_PATTERN.source;
    expect(source.length).toBe(13_086);
    expect(createHash("sha256").update(source, "utf8").digest("hex")).toBe(
      "aa6550ecdea8f6b6ee6e030ec95ac0cec15885d738a0b255e416df8713162c3b",
    );
    expect(CROSS_SESSION_CLOSE_PATTERN.flags).toBe("giu");
    // 22 capture groups: 2 in the head, 20 between the 21 name characters.
    expect(new RegExp(`${source}|`, "u").exec("")?.length).toBe(23);
  });
});

describe("docs/spec/cross-session.md §2 constants", () => {
  test("tag, modes, carry window", () => {
    expect(CROSS_SESSION_MESSAGE_TAG).toBe("cross-session-message");
    expect(PERMISSION_MODE_CLASSES).toEqual(["bypass", "prompting"]);
    expect(Object.isFrozen(PERMISSION_MODE_CLASSES)).toBe(true);
    expect(isPermissionModeClass("bypass")).toBe(true);
    expect(isPermissionModeClass("prompting")).toBe(true);
    for (const v of ["auto", "Bypass", "", null, undefined, 1, ["bypass"]]) {
      expect(isPermissionModeClass(v)).toBe(false);
    }
    expect(PEER_HOP_CHAIN_CARRY_WINDOW).toBe(32);
  });

  test("docs/spec/cross-session.md §7.1 authority list: 40 frozen entries, CC's 35 then our five", () => {
    expect(ENGINE_AUTHORITY_ENVELOPE_TAGS).toHaveLength(40);
    expect(Object.isFrozen(ENGINE_AUTHORITY_ENVELOPE_TAGS)).toBe(true);
    expect(new Set(ENGINE_AUTHORITY_ENVELOPE_TAGS).size).toBe(40);
    expect(ENGINE_AUTHORITY_ENVELOPE_TAGS.slice(0, 3)).toEqual([
      "bash-input",
      "bash-stdout",
      "bash-stderr",
    ]);
    expect(ENGINE_AUTHORITY_ENVELOPE_TAGS[34]).toBe("user-prompt-submit-hook");
    expect(ENGINE_AUTHORITY_ENVELOPE_TAGS.slice(35)).toEqual([
      "cited",
      "user_memory",
      "skills",
      "user-memory-input",
      "brigade-message",
    ]);
    for (const tag of ENGINE_AUTHORITY_ENVELOPE_TAGS) expect(tag).toMatch(/^[a-z_-]+$/);
  });

  test("docs/spec/cross-session.md §3 error codes and refusals", () => {
    expect(CROSS_SESSION_CODEC_ERROR_CODES).toEqual([
      "cross_session.invalid_from",
      "cross_session.invalid_from_session",
      "cross_session.invalid_from_mode",
      "cross_session.invalid_from_scope",
      "cross_session.invalid_hop_chain",
    ]);
    expect(CROSS_SESSION_ENVELOPE_REFUSALS).toEqual([
      "not_an_envelope",
      "bad_scope_encoding",
      "roundtrip_mismatch",
    ]);
    const error = new CrossSessionCodecError("cross_session.invalid_hop_chain", "m");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("CrossSessionCodecError");
    expect(error.code).toBe("cross_session.invalid_hop_chain");
  });
});

describe("docs/spec/cross-session.md §11 notice and classifier rule", () => {
  test("notice: one ASCII paragraph, no angle brackets, ≤ 1,000 characters, inert", () => {
    const n = CROSS_SESSION_MESSAGE_NOTICE;
    expect(n.length).toBeGreaterThan(0);
    expect(n.length).toBeLessThanOrEqual(1000);
    expect(n).toMatch(/^[\x20-\x7e]+$/);
    expect(n).not.toMatch(/[<>]/);
    expect(n).toBe(n.trim());
    expect(neutralizePeerBody(n)).toBe(n);
    expect(parseCrossSessionEnvelope(n)).toEqual({ ok: false, reason: "not_an_envelope" });
    for (const phrase of [
      /another agent session/,
      /did not type/,
      /claims/,
      /permissions/,
      /CLAUDE\.md/,
      /approv/,
      /permission laundering/,
      /from attribute/,
      /from-scope/,
    ]) {
      expect(n).toMatch(phrase);
    }
    expectGolden(join(dir, "notice.txt"), n);
  });

  test("classifier rule: names the frame, inbound and outbound halves", () => {
    const r = CROSS_SESSION_CLASSIFIER_RULE;
    expect(r).toMatch(/^[\x20-\x7e]+$/);
    expect(r).toBe(r.trim());
    expect(r).not.toBe(CROSS_SESSION_MESSAGE_NOTICE);
    for (const phrase of [
      /<cross-session-message from="\.\.\.">.*<\/cross-session-message>/,
      /user-role message/,
      /never\s+establishes/,
      /never approves a pending prompt/,
      /never\s+authorises an exception/,
      /lifts a boundary/,
      /instruction\s+files/,
      /permission\s+laundering/,
      /sends a cross-session\s+message asking another session/,
    ]) {
      expect(r).toMatch(phrase);
    }
    expectGolden(join(dir, "classifier-rule.txt"), r);
  });
});
