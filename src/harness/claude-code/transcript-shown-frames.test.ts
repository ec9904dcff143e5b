import { appendFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { shownFrames, wholeFrames } from "./transcript-shown-frames.ts";
import { readTranscriptWindow, transcriptEnd } from "./transcript-window.ts";

// Lines shaped as Claude Code 2.1.334 wrote them on the real client for hook output and tool
// results (measured December 2026, docs/spec/claude-code.md §1.3, §3.4), with invented content.

const TAG =
  '<brigade-message team="core" message-id="m-1" reply-to-session-id="s-1" from-principal="p-1" from-name="api" from-label="(unverified)" hops="0" sent-at="2026-12-03T15:00:00Z">';
const FRAME = `${TAG}\nPreamble.\n----\nSender summary (untrusted): hi\nhi\n</brigade-message>`;
const PREAMBLE = "Brigade: the following message was not typed by your user.";
const line = (value: unknown) => JSON.stringify(value);
const preview = (text: string) =>
  `<persisted-output>\nOutput too large (9.8KB). Full output saved to: /x/hook-stdout.txt\n\nPreview (first 2KB):\n${text.slice(0, 2000)}\n...\n</persisted-output>`;

const promptHook = (content: string, stdout = content) =>
  line({
    type: "attachment",
    attachment: {
      type: "hook_success",
      hookName: "UserPromptSubmit",
      toolUseID: "1b5e",
      hookEvent: "UserPromptSubmit",
      content,
      stdout,
      stderr: "",
      exitCode: 0,
      command: "brigade hook prompt",
      durationMs: 40,
    },
  });

const toolResult = (content: unknown, extra: Record<string, unknown> = {}) =>
  line({
    parentUuid: "a",
    isSidechain: false,
    type: "user",
    message: {
      role: "user",
      content: [{ tool_use_id: "toolu_1", type: "tool_result", content, is_error: false }],
    },
    ...extra,
  });

describe("wholeFrames", () => {
  test("each frame from its open tag line through its close line; a cut frame is not whole", () => {
    expect(wholeFrames(`${PREAMBLE}\n${FRAME}\nafter`)).toEqual([FRAME]);
    expect(wholeFrames(`${FRAME}\n${FRAME}`)).toEqual([FRAME, FRAME]);
    expect(wholeFrames(FRAME.slice(0, -1))).toEqual([]);
    expect(
      wholeFrames(preview(`${PREAMBLE}\n${FRAME.replace("hi\nhi", "x".repeat(5000))}`)),
    ).toEqual([]);
    // A tag that does not begin a line is sender text, never a frame.
    expect(wholeFrames(`quoted ${FRAME}`)).toEqual([]);
  });

  test("never throws, and finds nothing in text without an open-tag line", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const frames = wholeFrames(text);
        for (const frame of frames) expect(frame.endsWith("</brigade-message>")).toBe(true);
        if (!text.includes('<brigade-message team="')) expect(frames).toEqual([]);
      }),
    );
  });
});

describe("shownFrames: what the model was shown through a hook or a tool", () => {
  test("a UserPromptSubmit hook's content, whole; its preview shows no frame past the cut", () => {
    expect(shownFrames(promptHook(`${PREAMBLE}\n${FRAME}`))).toEqual([FRAME]);
    const long = `${PREAMBLE}\n${FRAME.replace("hi\nhi", "😀".repeat(5000))}`;
    expect(shownFrames(promptHook(preview(long), long))).toEqual([]);
  });

  test("the raw stdout is what the hook printed, not what the model read: never counted", () => {
    expect(shownFrames(promptHook("", `${PREAMBLE}\n${FRAME}`))).toEqual([]);
  });

  test("a hook's additionalContext, whole or previewed", () => {
    const context = (content: string[]) =>
      line({
        type: "attachment",
        attachment: {
          type: "hook_additional_context",
          content,
          hookName: "PostToolUse:Bash",
          toolUseID: "toolu_1",
          hookEvent: "PostToolUse",
        },
      });
    expect(shownFrames(context([`${PREAMBLE}\n${FRAME}`]))).toEqual([FRAME]);
    expect(shownFrames(context([preview(`${PREAMBLE}\n${FRAME}${"x".repeat(9000)}`)]))).toEqual([
      FRAME,
    ]);
  });

  test("a tool's result as the model read it, as a string or text blocks", () => {
    expect(shownFrames(toolResult(`${FRAME}`))).toEqual([FRAME]);
    expect(shownFrames(toolResult([{ type: "text", text: FRAME }]))).toEqual([FRAME]);
  });

  test("sub-agents, other hooks, other entries and garbage never count", () => {
    expect(shownFrames(toolResult(FRAME, { isSidechain: true }))).toEqual([]);
    const sessionStart = line({
      type: "attachment",
      attachment: { type: "hook_success", hookEvent: "SessionStart", content: FRAME },
    });
    expect(shownFrames(sessionStart)).toEqual([]);
    expect(
      shownFrames(
        line({ type: "assistant", message: { content: [{ type: "text", text: FRAME }] } }),
      ),
    ).toEqual([]);
    expect(shownFrames(`${line({ type: "attachment" })}<brigade-message`)).toEqual([]);
    expect(shownFrames("not json <brigade-message")).toEqual([]);
    expect(shownFrames(line({ type: "user", message: { content: FRAME } }))).toEqual([]);
  });
});

describe("readTranscriptWindow and transcriptEnd", () => {
  const dir = mkdtempSync(join(tmpdir(), "brigade-window-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("whole lines from an offset, a torn first and an unfinished last line left out", () => {
    const path = join(dir, "t.jsonl");
    writeFileSync(path, "one\ntwo\n");
    const end = transcriptEnd(path);
    expect(end).toBe(8);
    appendFileSync(path, "three\nfour\nfiv");
    expect(readTranscriptWindow(path, end ?? 0)).toEqual(["three", "four"]);
    expect(readTranscriptWindow(path, 0)).toEqual(["one", "two", "three", "four"]);
    // An offset inside a line starts at the next one.
    expect(readTranscriptWindow(path, 5)).toEqual(["three", "four"]);
    // At most maxBytes from the offset.
    expect(readTranscriptWindow(path, 0, 9)).toEqual(["one", "two"]);
  });

  test("a file now shorter than the offset is read from its tail", () => {
    const path = join(dir, "short.jsonl");
    writeFileSync(path, "a\nb\nc\n");
    expect(readTranscriptWindow(path, 10_000, 4)).toEqual(["b", "c"]);
  });

  test("a missing file ends at 0; relative paths, symlinks and folders read nothing", () => {
    expect(transcriptEnd(join(dir, "none.jsonl"))).toBe(0);
    expect(readTranscriptWindow(join(dir, "none.jsonl"), 0)).toEqual([]);
    expect(transcriptEnd("t.jsonl")).toBeUndefined();
    expect(transcriptEnd("")).toBeUndefined();
    const link = join(dir, "link.jsonl");
    symlinkSync(join(dir, "t.jsonl"), link);
    expect(transcriptEnd(link)).toBeUndefined();
    expect(readTranscriptWindow(link, 0)).toEqual([]);
    expect(readTranscriptWindow(dir, 0)).toEqual([]);
  });
});
