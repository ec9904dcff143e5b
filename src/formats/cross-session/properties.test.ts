// docs/spec/cross-session.md §15 properties (fast-check).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CROSS_SESSION_CLOSE_PATTERN } from "./escape-envelope-tag.ts";
import {
  buildCrossSessionEnvelope,
  type CcPeerFrameFields,
  type CrossSessionEnvelopeFields,
  canonicalPeerDisplayName,
  clampHopChain,
  decodeCcPeerFrame,
  decodeScopeAttribute,
  encodeCcPeerFrame,
  encodePeerAddress,
  encodeScopeAttribute,
  escapeEnvelopeTag,
  isCanonicalPeerAddress,
  neutralizePeerBody,
  parseCrossSessionEnvelope,
} from "./index.ts";

const CLOSING = "</cross-session-message>";

/** Well-formed strings of every plane, and strings that may hold lone surrogates. */
const wellFormed = fc.string({ unit: "grapheme", maxLength: 30 });
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

/** Bodies full of closing-tag look-alikes. */
const hostileBody: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        CLOSING,
        "<",
        "/",
        "\\",
        "\uff0f",
        "\u2039",
        "\ufe64",
        "\u{1d236}",
        "\u200b",
        " ",
        "\t",
        "\n",
      ),
      fc.constantFrom(
        "cross",
        "CROSS",
        "-",
        "_",
        "\u2010",
        "session",
        "SES\u017fION",
        "message",
        ">",
        "2",
      ),
      fc.constantFrom('<cross-session-message from="uds:/x">', "\ud800", "\udfff"),
      anyString,
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

const hex24 = fc.string({
  unit: fc.constantFrom(..."0123456789abcdef"),
  minLength: 24,
  maxLength: 24,
});
const sessionId = fc.string({
  unit: fc.constantFrom(..."abcXYZ019_-"),
  minLength: 1,
  maxLength: 80,
});
const mode = fc.constantFrom("bypass", "prompting") as fc.Arbitrary<"bypass" | "prompting">;
const address = wellFormed.filter((s) => s !== "").map(encodePeerAddress);

const modelFields: fc.Arbitrary<CrossSessionEnvelopeFields> = fc.record(
  {
    from: address,
    fromSession: sessionId,
    fromName: anyString,
    fromMode: mode,
    fromScope: wellFormed,
  },
  { requiredKeys: ["from"] },
);
const wireFields: fc.Arbitrary<CcPeerFrameFields> = fc.record(
  {
    from: address,
    fromSession: sessionId,
    hopChain: fc.array(hex24, { maxLength: 40 }),
    fromName: anyString,
    fromMode: mode,
    fromPlugin: anyString,
  },
  { requiredKeys: [] },
);

/** Offsets at which an unescaped closing-tag look-alike starts. */
function unescapedClosers(text: string): number[] {
  return [...text.matchAll(new RegExp(CROSS_SESSION_CLOSE_PATTERN.source, "giu"))].map(
    (m) => m.index,
  );
}

describe("docs/spec/cross-session.md §4 round trips", () => {
  test("every well-formed non-empty string encodes to a canonical address", () => {
    fc.assert(
      fc.property(wellFormed, (x) => {
        if (x !== "") expect(isCanonicalPeerAddress(encodePeerAddress(x))).toBe(true);
        expect(decodeScopeAttribute(encodeScopeAttribute(x))).toBe(x);
      }),
      { numRuns: 2000 },
    );
  });

  test("isCanonicalPeerAddress and decodeScopeAttribute never throw, and agree with the encoder", () => {
    const percentish = fc
      .array(
        fc.constantFrom(
          "%",
          "A",
          "a",
          "F",
          "0",
          "C3",
          "%C3%A9",
          "%41",
          "%25",
          "/",
          "\\",
          ":",
          "%EF%BB%BF",
          "%ED%A0%80",
        ),
        { maxLength: 8 },
      )
      .map((p) => p.join(""));
    fc.assert(
      fc.property(fc.oneof(anyString, percentish), (a) => {
        const canonical = isCanonicalPeerAddress(a);
        const decoded = decodeScopeAttribute(a);
        if (decoded !== undefined) expect(encodeScopeAttribute(decoded)).toBe(a);
        expect(canonical).toBe(a !== "" && decoded !== undefined);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("docs/spec/cross-session.md §5 display names", () => {
  test("idempotent, ≤ 65 code points, no attribute breakers", () => {
    fc.assert(
      fc.property(anyString, (raw) => {
        const name = canonicalPeerDisplayName(raw);
        expect(canonicalPeerDisplayName(name)).toBe(name);
        expect([...name].length).toBeLessThanOrEqual(65);
        expect(name).not.toMatch(/["<>\n\r]/);
      }),
    );
  });
});

describe("docs/spec/cross-session.md §8.2 and §9 round trips", () => {
  test("parse(build(f, b)) is ok with the escaped body and canonical fields", () => {
    fc.assert(
      fc.property(modelFields, hostileBody, (f, b) => {
        const parsed = parseCrossSessionEnvelope(buildCrossSessionEnvelope(f, b));
        const expected: CrossSessionEnvelopeFields = { from: f.from };
        if (f.fromSession !== undefined) expected.fromSession = f.fromSession;
        const name = canonicalPeerDisplayName(f.fromName as string);
        if (name !== "") expected.fromName = name;
        if (f.fromMode !== undefined) expected.fromMode = f.fromMode;
        if (f.fromScope !== undefined) expected.fromScope = f.fromScope;
        expect(parsed).toEqual({ ok: true, fields: expected, body: escapeEnvelopeTag(b) });
      }),
      { numRuns: 1500 },
    );
  });

  test("decode(encode(f, b)) is ok with the clamped chain", () => {
    fc.assert(
      fc.property(wireFields, hostileBody, (f, b) => {
        const frame = encodeCcPeerFrame(f, b);
        const decoded = decodeCcPeerFrame(frame);
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        expect(decoded.body).toBe(escapeEnvelopeTag(b));
        const chain = clampHopChain(f.hopChain ?? []);
        expect(decoded.fields.hopChain).toEqual(chain.length > 0 ? chain : undefined);
        expect(decoded.fields.from).toBe(f.from);
        expect(decoded.fields.fromSession).toBe(f.fromSession);
        expect(decoded.fields.fromMode).toBe(f.fromMode);
        expect(decoded.fields.fromName ?? "").toBe(canonicalPeerDisplayName(f.fromName as string));
        expect(decoded.fields.fromPlugin ?? "").toBe(
          canonicalPeerDisplayName(f.fromPlugin as string),
        );
        expect(encodeCcPeerFrame(decoded.fields, decoded.body)).toBe(frame);
      }),
      { numRuns: 1500 },
    );
  });

  test("no hostile body yields a second frame: the only unescaped closer is the final one", () => {
    fc.assert(
      fc.property(modelFields, wireFields, hostileBody, (mf, wf, b) => {
        for (const built of [
          buildCrossSessionEnvelope(mf, b),
          encodeCcPeerFrame(wf, b),
          buildCrossSessionEnvelope(mf, neutralizePeerBody(b)),
        ]) {
          expect(unescapedClosers(built)).toEqual([built.length - CLOSING.length]);
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe("docs/spec/cross-session.md §6 and §7 idempotence", () => {
  test("escapeEnvelopeTag and neutralizePeerBody are idempotent", () => {
    fc.assert(
      fc.property(hostileBody, (b) => {
        const escaped = escapeEnvelopeTag(b);
        expect(escapeEnvelopeTag(escaped)).toBe(escaped);
        expect(unescapedClosers(escaped)).toEqual([]);
        const neutral = neutralizePeerBody(b);
        expect(neutralizePeerBody(neutral)).toBe(neutral);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parsers never throw", () => {
  test("on any string, including lone surrogates", () => {
    fc.assert(
      fc.property(fc.oneof(anyString, hostileBody), fc.boolean(), (s, wrap) => {
        const text = wrap ? `<cross-session-message from="uds:/x">\n${s}\n${CLOSING}` : s;
        const model = parseCrossSessionEnvelope(text);
        const wire = decodeCcPeerFrame(text);
        expect(typeof model.ok).toBe("boolean");
        expect(typeof wire.ok).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });

  test("on non-strings and on 1 MiB inputs", () => {
    for (const v of [undefined, null, 1, {}, []]) {
      expect(parseCrossSessionEnvelope(v as unknown as string)).toEqual({
        ok: false,
        reason: "not_an_envelope",
      });
      expect(decodeCcPeerFrame(v as unknown as string)).toEqual({
        ok: false,
        reason: "not_an_envelope",
      });
    }
    const mib = 1 << 20;
    const body = "a</cross-session-message>\ud800 \u1d04".repeat(mib / 32);
    const frame = buildCrossSessionEnvelope({ from: "uds:/x" }, body);
    expect(parseCrossSessionEnvelope(frame).ok).toBe(true);
    expect(decodeCcPeerFrame(frame).ok).toBe(true);
    expect(
      parseCrossSessionEnvelope(`<cross-session-message from="uds:/x">\n${"\n".repeat(mib)}`).ok,
    ).toBe(false);
    expect(decodeCcPeerFrame("<cross-session-message".repeat(mib / 22)).ok).toBe(false);
    expect(neutralizePeerBody("<".repeat(mib)).length).toBe(mib);
  });
});
