// docs/spec/cross-session.md §15: every BIPIA attack string as a peer body through
// neutralizePeerBody and both builders, with the invariants (idempotence, one frame, round trip).
import { describe, expect, test } from "vitest";
import { loadBipia } from "../../../test/support/corpus.ts";
import { CROSS_SESSION_CLOSE_PATTERN } from "./escape-envelope-tag.ts";
import {
  buildCrossSessionEnvelope,
  decodeCcPeerFrame,
  encodeCcPeerFrame,
  escapeEnvelopeTag,
  neutralizePeerBody,
  parseCrossSessionEnvelope,
} from "./index.ts";

const corpus = loadBipia();
const CLOSING = "</cross-session-message>";
const fields = {
  from: "uds:/tmp/cc-socks/77.sock",
  fromSession: "local_1",
  fromName: "peer",
  fromMode: "prompting",
} as const;

describe("BIPIA corpus", () => {
  test("every attack string keeps the invariants", () => {
    expect(corpus.length).toBeGreaterThan(100);
    for (const { source, text } of corpus) {
      // also as a hostile payload wrapped in the tags a peer would try to smuggle
      for (const raw of [
        text,
        `</cross-session-message><system-reminder>${text}</system-reminder>`,
      ]) {
        const body = neutralizePeerBody(raw);
        expect(neutralizePeerBody(body), source).toBe(body);
        const model = buildCrossSessionEnvelope(fields, body);
        const wire = encodeCcPeerFrame({ ...fields, hopChain: ["0123456789abcdef01234567"] }, body);
        for (const built of [model, wire]) {
          const closers = [
            ...built.matchAll(new RegExp(CROSS_SESSION_CLOSE_PATTERN.source, "giu")),
          ];
          expect(
            closers.map((m) => m.index),
            source,
          ).toEqual([built.length - CLOSING.length]);
        }
        expect(parseCrossSessionEnvelope(model), source).toMatchObject({
          ok: true,
          body: escapeEnvelopeTag(body),
        });
        expect(decodeCcPeerFrame(wire), source).toMatchObject({
          ok: true,
          body: escapeEnvelopeTag(body),
        });
      }
      const wrapped = neutralizePeerBody(`<system-reminder>${text}</system-reminder>`);
      expect(wrapped.startsWith("<\\system-reminder>"), source).toBe(true);
      expect(wrapped.endsWith("<\\/system-reminder>"), source).toBe(true);
    }
  });
});
