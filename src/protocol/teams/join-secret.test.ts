import { createHash } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import {
  containsJoinSecretShape,
  formatJoinSecret,
  generateJoinSecret,
  JoinSecretError,
  parseJoinSecret,
} from "./join-secret.ts";
import { digestJoinSecret, verifyJoinSecretDigest } from "./join-secret-digest.ts";

describe("parseJoinSecret (docs/spec/protocol.md §9)", () => {
  test("team_ref is everything up to the last dot", () => {
    const r = parseJoinSecret("brg1.team.with.dots.s3cr3t");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.teamRef).toBe("team.with.dots");
    expect(r.value.revealSecretHalf()).toBe("s3cr3t");
    expect(r.value.reveal()).toBe("brg1.team.with.dots.s3cr3t");
  });

  test("every rendering redacts the secret half", () => {
    const r = parseJoinSecret("brg1.t-9c1e.Zm9vYmFy");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(String(r.value)).toBe("brg1.t-9c1e.[redacted]");
    expect(`${r.value}`).toBe("brg1.t-9c1e.[redacted]");
    expect(JSON.stringify({ s: r.value })).toBe('{"s":"brg1.t-9c1e.[redacted]"}');
    expect(inspect(r.value)).toBe("brg1.t-9c1e.[redacted]");
    expect(inspect({ nested: r.value })).not.toContain("Zm9vYmFy");
  });

  test.each([
    [""],
    ["brg1."],
    ["brg1.abc"],
    ["brg1..secret"],
    ["brg1.team."],
    ["BRG1.team.secret"],
    ["brg2.team.secret"],
    [" brg1.team.secret"],
    ["brg1.team.secret "],
    ["brg1.team.sec ret"],
    ["brg1.te\u0085am.secret"],
    ["brg1.team.secret\u00a0"],
    ["brg1.team.se\u3000cret"],
    ["brg1.team.se\u200bcret"],
    ["brg1.team.se\u202ecret"],
    ["brg1.team.se\u0000cret"],
    ["brg1.team.se\u007fcret"],
    ["brg1.team.se\ud800cret"],
  ])("%j is malformed, with a fixed message and no part of the input", (text) => {
    const r = parseJoinSecret(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toEqual({
      code: "invalid_input",
      message: "the join secret is malformed",
      retryable: false,
      details: { field: "join_secret", reason: "invalid_value" },
    });
  });

  test("non-ASCII, dots in team_ref and U+FEFF-free printable text are fine", () => {
    expect(parseJoinSecret("brg1.équipe.ñ").ok).toBe(true);
    expect(parseJoinSecret("brg1.a..b").ok).toBe(true); // team_ref "a."
  });
});

describe("format and generate", () => {
  test("formatJoinSecret round-trips through parse", () => {
    const text = formatJoinSecret("t.9c1e", "abc_-XYZ");
    expect(text).toBe("brg1.t.9c1e.abc_-XYZ");
    const r = parseJoinSecret(text);
    expect(r.ok && r.value.teamRef).toBe("t.9c1e");
  });

  test("encoders throw typed errors whose message does not contain the value", () => {
    const cases: Array<[() => string, string]> = [
      [() => formatJoinSecret("", "x"), "invalid_team_ref"],
      [() => formatJoinSecret("t 1", "x"), "invalid_team_ref"],
      [() => formatJoinSecret("t", "a.b"), "invalid_secret_half"],
      [() => formatJoinSecret("t", ""), "invalid_secret_half"],
      [() => generateJoinSecret("t", new Uint8Array(15)), "insufficient_randomness"],
    ];
    for (const [run, code] of cases) {
      try {
        run();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(JoinSecretError);
        expect((e as JoinSecretError).code).toBe(code);
      }
    }
  });

  test("generateJoinSecret encodes the given bytes as unpadded base64url", () => {
    expect(generateJoinSecret("t-9c1e", new Uint8Array(16))).toBe(
      "brg1.t-9c1e.AAAAAAAAAAAAAAAAAAAAAA",
    );
    const bytes = new Uint8Array(32).map((_, i) => i * 8 + 3);
    const secret = generateJoinSecret("t-9c1e", bytes);
    expect(secret).toBe(`brg1.t-9c1e.${Buffer.from(bytes).toString("base64url")}`);
    expect(parseJoinSecret(secret).ok).toBe(true);
    expect(containsJoinSecretShape(secret)).toBe(true);
  });
});

describe("leak scan and digest", () => {
  test("the suite's pattern finds secrets in text and ignores the bare prefix", () => {
    expect(containsJoinSecretShape('log: "brg1.t-9c1e.Zm9v" end')).toBe(true);
    expect(containsJoinSecretShape("the prefix brg1. alone")).toBe(false);
    expect(containsJoinSecretShape("brg1.only")).toBe(false);
  });

  test("digest: sha256 of the full secret; verification is exact", () => {
    const a = parseJoinSecret("brg1.t-9c1e.Zm9vYmFy");
    const b = parseJoinSecret("brg1.t-9c1e.Zm9vYmFz");
    if (!a.ok || !b.ok) throw new Error("fixtures must parse");
    const digest = digestJoinSecret(a.value);
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // sha256("brg1.t-9c1e.Zm9vYmFy"), computed independently below.
    expect(digest).toBe(
      `sha256:${createHash("sha256").update("brg1.t-9c1e.Zm9vYmFy").digest("hex")}`,
    );
    expect(verifyJoinSecretDigest(a.value, digest)).toBe(true);
    expect(verifyJoinSecretDigest(b.value, digest)).toBe(false);
    expect(verifyJoinSecretDigest(a.value, "sha256:short")).toBe(false);
  });
});
