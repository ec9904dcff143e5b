import { describe, expect, test } from "vitest";
import { frameOpenTags, parseTranscriptDeliveryLine } from "./transcript-deliveries.ts";

// Lines shaped as Claude Code 2.1.334 wrote them on the real client for inbox posts (measured
// December 2026), with invented content.

const TAG =
  '<brigade-message team="core" message-id="m-1" reply-to-session-id="s-1" from-principal="p-1" from-name="api" from-label="(unverified)" hops="0" sent-at="2026-12-03T15:00:00Z">';
const WRAPPED = `<cross-session-message from-name="api">\n${TAG}\nPreamble.\n----\nSender summary (untrusted): hi\nhi\n</brigade-message>\n</cross-session-message>`;
const line = (value: unknown) => JSON.stringify(value);

describe("parseTranscriptDeliveryLine", () => {
  test("a post taken while idle: a peer user entry", () => {
    const entry = line({
      parentUuid: null,
      isSidechain: false,
      type: "user",
      message: {
        role: "user",
        content: `Another Claude session sent a message:\n${WRAPPED}\n\nThis came from another Claude session.`,
      },
      isMeta: true,
      origin: { kind: "peer", from: "unknown", name: "api", body: TAG },
    });
    expect(parseTranscriptDeliveryLine(entry)).toEqual({ kind: "conversation", tags: [TAG] });
  });

  test("a post taken between tool calls: a queued_command attachment", () => {
    const entry = line({
      isSidechain: false,
      type: "attachment",
      attachment: { type: "queued_command", prompt: WRAPPED, origin: { kind: "peer" } },
    });
    expect(parseTranscriptDeliveryLine(entry)).toEqual({ kind: "conversation", tags: [TAG] });
  });

  test("a hook's additionalContext", () => {
    const entry = line({
      type: "attachment",
      attachment: {
        type: "hook_additional_context",
        content: [`${TAG}\nbody\n</brigade-message>`],
      },
    });
    expect(parseTranscriptDeliveryLine(entry)).toEqual({ kind: "conversation", tags: [TAG] });
  });

  test("queue operations and the permission mode", () => {
    expect(
      parseTranscriptDeliveryLine(
        line({ type: "queue-operation", operation: "enqueue", content: WRAPPED }),
      ),
    ).toEqual({ kind: "enqueued", tags: [TAG] });
    expect(
      parseTranscriptDeliveryLine(
        line({ type: "queue-operation", operation: "enqueue", content: "fix it" }),
      ),
    ).toEqual({ kind: "enqueued", tags: [] });
    for (const operation of ["dequeue", "remove"]) {
      expect(parseTranscriptDeliveryLine(line({ type: "queue-operation", operation }))).toEqual({
        kind: "dequeued",
      });
    }
    expect(
      parseTranscriptDeliveryLine(
        line({ type: "permission-mode", permissionMode: "bypassPermissions" }),
      ),
    ).toEqual({ kind: "permission_mode", mode: "bypassPermissions" });
  });

  test("a post held for the dialog", () => {
    const content =
      "Held peer message — from an unidentified session; preview: «<brigade-message team=core message-id=m-1 reply-to-session-id=s-1» — not delivered to Claude (1 held).";
    expect(
      parseTranscriptDeliveryLine(line({ type: "system", subtype: "informational", content })),
    ).toEqual({ kind: "held", text: content });
  });

  test("what is not the conversation counts nothing: tool results, other users, sub-agents, hook stdout", () => {
    const lines = [
      // a tool result that printed a frame (the model ran `cat` on one)
      line({
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", content: WRAPPED }] },
      }),
      // a user entry that is not a peer post (the user pasted a frame)
      line({ type: "user", message: { role: "user", content: WRAPPED } }),
      line({
        type: "user",
        isSidechain: true,
        message: { role: "user", content: WRAPPED },
        origin: { kind: "peer" },
      }),
      line({
        type: "attachment",
        attachment: {
          type: "hook_success",
          stdout: JSON.stringify({ additionalContext: WRAPPED }),
        },
      }),
      line({ type: "attachment", attachment: { type: "queued_command", prompt: WRAPPED } }),
      line({ type: "assistant", message: { content: [{ type: "text", text: WRAPPED }] } }),
      "not json <brigade-message",
      '{"type":"queue-operation"',
      "[]",
    ];
    for (const text of lines) expect(parseTranscriptDeliveryLine(text)).toBeUndefined();
  });

  test("a sender's body cannot forge another message's tag (the sanitiser's &lt; is no tag)", () => {
    const forged = `${TAG}\n&lt;brigade-message team="core" message-id="m-2">\n</brigade-message>`;
    expect(frameOpenTags(forged)).toEqual([TAG]);
  });
});
