import { describe, expect, test } from "vitest";
import { parseHostHookInput as parseGeminiHookInput } from "./host-hook-input.ts";

describe("a Gemini CLI hook's stdin, through parseHostHookInput", () => {
  test("reads the members Brigade uses; SessionStart's source and SessionEnd's reason are the cause", () => {
    const start = parseGeminiHookInput(
      JSON.stringify({
        session_id: "9486b714",
        cwd: "/w/api",
        transcript_path: "/t/s.json",
        source: "resume",
      }),
    );
    expect(start).toEqual({
      sessionId: "9486b714",
      cwd: "/w/api",
      transcriptPath: "/t/s.json",
      cause: "resume",
      toolName: "",
    });
    const tool = parseGeminiHookInput(JSON.stringify({ session_id: "x", tool_name: "read_file" }));
    expect(tool?.toolName).toBe("read_file");
    expect(parseGeminiHookInput(JSON.stringify({ session_id: "x", reason: "exit" }))?.cause).toBe(
      "exit",
    );
  });

  test("hostile or malformed input never throws: wrong types, control characters, relative paths read as empty", () => {
    for (const raw of ["", "null", "[]", "{", '"text"', "1", "x".repeat(1_048_577)]) {
      expect(parseGeminiHookInput(raw)).toBeUndefined();
    }
    const odd = parseGeminiHookInput(
      JSON.stringify({
        session_id: "a\nb",
        cwd: "relative",
        transcript_path: 7,
        source: "s".repeat(5000),
      }),
    );
    expect(odd).toEqual({ sessionId: "", cwd: "", transcriptPath: "", cause: "", toolName: "" });
  });
});
