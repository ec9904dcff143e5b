import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";

/**
 * Why a hook's stdin document was not usable (docs/spec/claude-code.md §1.2): `empty`, `too_large`
 * (over 1 MiB), `not_json` (not strict UTF-8 JSON, or a repeated member), `not_object`. The hook
 * then logs the token to stderr and exits 0.
 *
 * @example HOOK_INPUT_FAILURES.includes("not_json") === true
 */
export const HOOK_INPUT_FAILURES = ["empty", "too_large", "not_json", "not_object"] as const;

/** One {@link HOOK_INPUT_FAILURES} token. */
export type HookInputFailure = (typeof HOOK_INPUT_FAILURES)[number];

/**
 * The members of the stdin document a Brigade hook reads (docs/spec/claude-code.md §1.2, §0 item
 * 1); every other member is ignored — `prompt` above all, which is never read, stored or sent. A
 * member absent or of the wrong type is `""`.
 *
 * @example const input: HookInput = { session_id: "5d1c…", cwd: "/work/app", hook_event_name: "SessionStart", transcript_path: "", permission_mode: "", source: "startup", session_title: "", reason: "" };
 */
export interface HookInput {
  readonly session_id: string;
  readonly cwd: string;
  readonly hook_event_name: string;
  readonly transcript_path: string;
  /**
   * Only UserPromptSubmit carries it (SessionStart and SessionEnd do not,
   * docs/spec/claude-code.md §0 item 1).
   */
  readonly permission_mode: string;
  /** SessionStart: `startup`, `resume`, `clear`, `compact`, `fork` (unknown values kept). */
  readonly source: string;
  /** SessionStart, optional. */
  readonly session_title: string;
  /** SessionEnd: `clear`, `resume`, `logout`, `prompt_input_exit`, … (unknown values kept). */
  readonly reason: string;
}

/** Result of {@link parseHookInput}. */
export type HookInputResult =
  | { readonly ok: true; readonly input: HookInput }
  | { readonly ok: false; readonly reason: HookInputFailure };

const MEMBERS = [
  "session_id",
  "cwd",
  "hook_event_name",
  "transcript_path",
  "permission_mode",
  "source",
  "session_title",
  "reason",
] as const;

function text(o: Readonly<Record<string, JsonValue>>, name: string): string {
  const v = o[name];
  return typeof v === "string" ? v : "";
}

/**
 * Parses one hook stdin document: at most 1 MiB of strict UTF-8 holding exactly one JSON object;
 * unknown members tolerated, the members of {@link HookInput} read as strings. Never throws.
 *
 * @example parseHookInput(new TextEncoder().encode('{"session_id":"a","cwd":"/w"}')) // ok, cwd "/w"
 */
export function parseHookInput(bytes: Uint8Array): HookInputResult {
  if (bytes.length > HOOK_LIMITS.maxStdinBytes) return { ok: false, reason: "too_large" };
  let start = 0;
  while (start < bytes.length && isAsciiSpace(bytes[start] as number)) start += 1;
  if (start === bytes.length) return { ok: false, reason: "empty" };
  const parsed = parseJsonDocument(bytes, { maxBytes: HOOK_LIMITS.maxStdinBytes });
  if (!parsed.ok) return { ok: false, reason: "not_json" };
  if (!isJsonObject(parsed.value)) return { ok: false, reason: "not_object" };
  const o = parsed.value;
  const input: Record<string, string> = {};
  for (const name of MEMBERS) input[name] = text(o, name);
  return { ok: true, input: input as unknown as HookInput };
}

function isAsciiSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * Reads a hook's stdin to EOF, keeping at most 1 MiB + 1 byte (so an oversized document is
 * recognised without buffering it all), then {@link parseHookInput}. A read error counts as
 * `empty`. Never throws.
 *
 * @example const r = await readHookInput(process.stdin);
 */
export async function readHookInput(stdin: AsyncIterable<Uint8Array>): Promise<HookInputResult> {
  const cap = HOOK_LIMITS.maxStdinBytes + 1;
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stdin) {
      const room = cap - total;
      if (room <= 0) break;
      const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      total += part.byteLength;
    }
  } catch {
    return { ok: false, reason: "empty" };
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return parseHookInput(bytes);
}
