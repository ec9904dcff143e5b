import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  confirmShown,
  lockShown,
  MAX_SHOWN_RECORDS,
  readShownRecords,
  type ShownRecord,
  type StateLayout,
  sha256Hex,
  shownRecord,
  stateLayout,
  writeShownRecords,
} from "./index.ts";

const uid = process.getuid?.() ?? 0;
const TAG =
  '<brigade-message team="core" message-id="m-1" reply-to-session-id="s-a" from-principal="p-1" from-name="api" from-label="(unverified)" hops="0" sent-at="2026-12-03T15:00:00Z">';
const FRAME = `${TAG}\nPreamble.\n----\nSender summary (untrusted): hi\nhi\n</brigade-message>`;
const OTHER = FRAME.replace('message-id="m-1"', 'message-id="m-2"');
const message = (id: string) => ({ message_id: id, sender: { session_id: "s-a" } });

/** A UserPromptSubmit hook's record as Claude Code 2.1.334 writes it (docs/spec/claude-code.md §3.4). */
const promptHookLine = (content: string) =>
  `${JSON.stringify({
    type: "attachment",
    attachment: { type: "hook_success", hookEvent: "UserPromptSubmit", content, stdout: content },
  })}\n`;

let base: string;
let layout: StateLayout;
let transcript: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-shown-"));
  layout = stateLayout(join(base, "brigade"));
  transcript = join(base, "t.jsonl");
  writeFileSync(transcript, '{"type":"mode"}\n');
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("shown records (state/shown/<stem>.json)", () => {
  test("round trip, one per message id (the last wins), newest kept, none removes the file", () => {
    const a = shownRecord(message("m-1"), "frame", FRAME, transcript, 1_000);
    expect(a).toEqual({
      message_id: "m-1",
      sender_session_id: "s-a",
      shown_as: "frame",
      frame_sha256: sha256Hex(FRAME),
      shown_at: 1_000,
      transcript_path: transcript,
      transcript_offset: 16,
    });
    const b = shownRecord(message("m-2"), "notice", OTHER, transcript, 2_000);
    const again = { ...a, shown_as: "show" as const, shown_at: 3_000 };
    writeShownRecords(layout, "s-me", [a, b, again]);
    expect(readShownRecords(layout, "s-me", uid)).toEqual([b, again]);
    const many: ShownRecord[] = Array.from({ length: MAX_SHOWN_RECORDS + 5 }, (_, i) => ({
      ...a,
      message_id: `m-${i}`,
    }));
    writeShownRecords(layout, "s-me", many);
    const kept = readShownRecords(layout, "s-me", uid);
    expect(kept).toHaveLength(MAX_SHOWN_RECORDS);
    expect(kept[0]?.message_id).toBe("m-5");
    writeShownRecords(layout, "s-me", []);
    expect(readShownRecords(layout, "s-me", uid)).toEqual([]);
  });

  test("no transcript known: the record says so, and nothing can confirm it", () => {
    const record = shownRecord(message("m-1"), "frame", FRAME, "", 1);
    expect(record.transcript_path).toBe("");
    expect(record.transcript_offset).toBe(0);
    appendFileSync(transcript, promptHookLine(FRAME));
    expect(confirmShown([record]).confirmed).toEqual([]);
  });

  test("malformed records, a foreign version or a non-private file read as nothing", () => {
    const a = shownRecord(message("m-1"), "frame", FRAME, transcript, 1);
    writeShownRecords(layout, "s-me", [a]);
    const path = layout.shown("s-me");
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        records: [a, { ...a, message_id: "m-2", frame_sha256: "zz" }, { ...a, shown_as: "x" }, 7],
      }),
    );
    expect(readShownRecords(layout, "s-me", uid)).toEqual([a]);
    writeFileSync(path, JSON.stringify({ version: 2, records: [a] }));
    expect(readShownRecords(layout, "s-me", uid)).toEqual([]);
    writeFileSync(path, JSON.stringify({ version: 1, records: [a] }));
    chmodSync(path, 0o644);
    expect(readShownRecords(layout, "s-me", uid)).toEqual([]);
  });
});

describe("confirmShown: acked means the model read the whole frame", () => {
  test("a record is confirmed by its whole frame after the offset it was shown at", () => {
    const a = shownRecord(message("m-1"), "frame", FRAME, transcript, 1);
    const b = shownRecord(message("m-2"), "frame", OTHER, transcript, 1);
    expect(confirmShown([a, b])).toEqual({ confirmed: [], unconfirmed: [a, b] });
    appendFileSync(transcript, promptHookLine(`Brigade: the following…\n${FRAME}`));
    expect(confirmShown([a, b])).toEqual({ confirmed: [a], unconfirmed: [b] });
  });

  test("a frame the model saw only as Claude Code's preview is not read", () => {
    const a = shownRecord(message("m-1"), "frame", FRAME, transcript, 1);
    const cut = `<persisted-output>\nPreview (first 2KB):\n${FRAME.slice(0, 200)}\n...\n</persisted-output>`;
    appendFileSync(transcript, promptHookLine(cut));
    expect(confirmShown([a]).confirmed).toEqual([]);
  });

  test("a frame recorded before the record's offset (an earlier showing) does not confirm it", () => {
    appendFileSync(transcript, promptHookLine(FRAME));
    const a = shownRecord(message("m-1"), "frame", FRAME, transcript, 1);
    expect(confirmShown([a]).confirmed).toEqual([]);
  });

  test("records far apart in the transcript are each looked for from their own offset", () => {
    const a = shownRecord(message("m-1"), "frame", FRAME, transcript, 1);
    appendFileSync(transcript, promptHookLine(FRAME));
    appendFileSync(transcript, `${"x".repeat(1_200_000)}\n`);
    const b = shownRecord(message("m-2"), "show", OTHER, transcript, 1);
    appendFileSync(transcript, promptHookLine(OTHER));
    expect(confirmShown([b, a]).confirmed).toEqual([b, a]);
  });
});

describe("lockShown: one delivering hook run at a time per session", () => {
  test("a second run finds the lock taken; released, it is free again; other sessions never wait", () => {
    const release = lockShown(layout, "s-me");
    expect(release).toBeDefined();
    expect(lockShown(layout, "s-me")).toBeUndefined();
    const other = lockShown(layout, "s-other");
    expect(other).toBeDefined();
    other?.();
    release?.();
    expect(existsSync(layout.shown("s-me").replace(/\.json$/, ".lock"))).toBe(false);
    const again = lockShown(layout, "s-me");
    expect(again).toBeDefined();
    again?.();
  });

  test("a lock a killed hook left behind is taken over once it is stale", () => {
    lockShown(layout, "s-me");
    const path = layout.shown("s-me").replace(/\.json$/, ".lock");
    expect(lockShown(layout, "s-me")).toBeUndefined();
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(path, old, old);
    const taken = lockShown(layout, "s-me");
    expect(taken).toBeDefined();
    taken?.();
  });
});
