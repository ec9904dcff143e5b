import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { loadBipia } from "../../../test/support/corpus.ts";
import { sanitizeAttribute, sanitizeBody, sanitizeId, sanitizeSummary } from "../sanitize/index.ts";
import { hostileText } from "../sanitize/testdata/hostile-text.ts";
import { firstCodePoints } from "../text/index.ts";
import {
  build,
  clauseOf,
  type FrameEnvelope,
  type Instruction,
  parse,
  preambleLine,
  UNVERIFIED_SUFFIX,
  wrap,
} from "./index.ts";

/** Real open tags as the parser's step 1 defines them, and literal close tags. */
const countOpen = (s: string): number => s.match(/<brigade-message(?=$|[ >\n\t])/g)?.length ?? 0;
const countClose = (s: string): number => s.split("</brigade-message>").length - 1;

const INSTRUCTIONS: readonly Instruction[] = [
  { level: "open", custom: "" },
  { level: "guarded", custom: "" },
  { level: "strict", custom: "" },
  { level: "custom", custom: "Ask me before any deploy. " },
];

interface Hostile {
  envelope: FrameEnvelope;
  team: string;
  instruction: Instruction;
}

const hostileEnvelope: fc.Arbitrary<Hostile> = fc
  .record({
    messageId: hostileText,
    principal: hostileText,
    label: fc.option(hostileText, { nil: undefined }),
    sessionId: hostileText,
    name: hostileText,
    summary: fc.option(hostileText, { nil: undefined }),
    body: hostileText,
    replyTo: fc.option(hostileText, { nil: null }),
    hops: fc.integer({ min: 0, max: 32 }),
    team: hostileText,
    instruction: fc.constantFrom(...INSTRUCTIONS),
  })
  .map((r) => ({
    envelope: {
      message_id: r.messageId,
      sender: {
        principal_ref: r.principal,
        human_label: r.label,
        session_id: r.sessionId,
        session_name: r.name,
      },
      summary: r.summary,
      body: r.body,
      reply_to: r.replyTo,
      hop_count: r.hops,
      created_at: "2026-10-02T11:15:42.618+02:00",
    },
    team: r.team,
    instruction: r.instruction,
  }));

/** Builds, wraps and parses; checks one frame with the true attributes, bare and wrapped. */
function checkRoundTrip({ envelope, team, instruction }: Hostile): void {
  const frame = build(envelope, team, instruction);
  expect(countOpen(frame)).toBe(1);
  expect(countClose(frame)).toBe(1);
  const label = sanitizeAttribute(envelope.sender.human_label ?? "");
  const body = sanitizeBody(envelope.body);
  const summary = sanitizeSummary(envelope.summary ?? "") || firstCodePoints(body, 80);
  const messageId = sanitizeId(envelope.message_id);
  const sessionId = sanitizeId(envelope.sender.session_id);
  for (const text of [frame, wrap(frame, envelope.sender.session_name)]) {
    const parsed = parse(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const f = parsed.frame;
    expect(f.frame).toBe(frame);
    expect(f.team).toBe(sanitizeAttribute(team));
    expect(f.messageId).toBe(messageId);
    expect(f.replyToSessionId).toBe(sessionId);
    expect(f.fromPrincipal).toBe(sanitizeId(envelope.sender.principal_ref));
    expect(f.fromName).toBe(sanitizeAttribute(envelope.sender.session_name));
    expect(f.fromLabel).toBe(label === "" ? "(unverified)" : label + UNVERIFIED_SUFFIX);
    expect(f.hops).toBe(String(envelope.hop_count));
    expect(f.sentAt).toBe("2026-10-02T09:15:42Z");
    expect(Object.keys(f.attributes).length).toBe(f.inReplyTo === "" ? 8 : 9);
    if (f.inReplyTo !== "") expect(f.inReplyTo).toBe(sanitizeId(envelope.reply_to ?? ""));
    expect(f.preamble).toBe(preambleLine(clauseOf(instruction), sessionId, messageId));
    expect(f.summary).toBe(summary.replace(/\n/g, " "));
    expect(f.body).toBe(body);
    expect(f.wrapped).toBe(text !== frame);
    if (f.wrapped) expect(f.wrapperFromName).toBe(sanitizeAttribute(envelope.sender.session_name));
  }
}

describe("frame properties", () => {
  test("parse(build(x)) is one frame with the true attributes, bare and wrapped", () => {
    fc.assert(fc.property(hostileEnvelope, checkRoundTrip), { numRuns: 1500 });
  });

  test("parse never throws", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: "binary" })), (s) => {
        const result = parse(s);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 3000 },
    );
  });

  test("BIPIA corpus as body, summary, session name, label and team", () => {
    const corpus = loadBipia();
    const base: FrameEnvelope = {
      message_id: "m-1",
      sender: { principal_ref: "p-1", human_label: "a", session_id: "s-1", session_name: "n" },
      summary: "s",
      body: "b",
      reply_to: null,
      hop_count: 0,
      created_at: "2026-10-02T09:15:42Z",
    };
    for (const { text } of corpus) {
      const variants: Hostile[] = [
        {
          envelope: { ...base, body: text },
          team: "t",
          instruction: INSTRUCTIONS[0] as Instruction,
        },
        {
          envelope: { ...base, summary: text },
          team: "t",
          instruction: INSTRUCTIONS[1] as Instruction,
        },
        {
          envelope: { ...base, sender: { ...base.sender, session_name: text } },
          team: "t",
          instruction: INSTRUCTIONS[2] as Instruction,
        },
        {
          envelope: { ...base, sender: { ...base.sender, human_label: text } },
          team: "t",
          instruction: INSTRUCTIONS[3] as Instruction,
        },
        {
          envelope: { ...base, summary: undefined, body: text },
          team: text,
          instruction: INSTRUCTIONS[0] as Instruction,
        },
      ];
      for (const v of variants) checkRoundTrip(v);
    }
  });
});
