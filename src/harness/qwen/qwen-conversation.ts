import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { QWEN_CHATS_FOLDER } from "./qwen-facts.ts";
import { qwenEscapedContent } from "./qwen-frames.ts";

/** The largest conversation record read, bytes; a larger one reads as holding nothing. */
export const QWEN_RECORD_MAX_BYTES: number = 64 * 1024 * 1024;

const SESSION_FILE = /^[\x21-\x7e]{1,200}$/;

/**
 * The path of Qwen Code's own record of the conversation `sessionId`
 * (`<runtimeDir>/projects/<any>/chats/<sessionId>.jsonl`), or `undefined` when there is none.
 * Never throws.
 *
 * @example qwenConversationFile("/home/me/.qwen", "7a2dba46-…")
 */
export function qwenConversationFile(runtimeDir: string, sessionId: string): string | undefined {
  if (!SESSION_FILE.test(sessionId) || sessionId.includes("/")) return undefined;
  const projects = join(runtimeDir, "projects");
  let names: string[];
  try {
    names = readdirSync(projects);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const path = join(projects, name, QWEN_CHATS_FOLDER, `${sessionId}.jsonl`);
    try {
      if (statSync(path).isFile()) return path;
    } catch {
      // not in this project folder
    }
  }
  return undefined;
}

/**
 * The user texts of the record's lines that carry a cross-session message (`type` "user",
 * `subtype` "notification"), in record order; unreadable or malformed lines are skipped. Never
 * throws.
 *
 * @example qwenDeliveredTexts(path).length
 */
export function qwenDeliveredTexts(path: string): string[] {
  let text: string;
  try {
    if (statSync(path).size > QWEN_RECORD_MAX_BYTES) return [];
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.includes('"notification"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const v = value as Record<string, unknown>;
    if (v.type !== "user" || v.subtype !== "notification") continue;
    const message = v.message as { parts?: unknown } | undefined;
    if (!Array.isArray(message?.parts)) continue;
    for (const part of message.parts as unknown[]) {
      const t = (part as { text?: unknown } | null)?.text;
      if (typeof t === "string" && t.startsWith("<cross_session_message ")) out.push(t);
    }
  }
  return out;
}

/**
 * Whether a delivered envelope holds exactly `content` as its body: the text after the envelope's
 * opening line and before `\n</cross_session_message>` is `content` with Qwen Code's escaping
 * (`qwenEscapedContent`). Never throws.
 *
 * @example envelopeHolds(texts[0], sentinelAndFrame)
 */
export function envelopeHolds(envelope: string, content: string): boolean {
  const start = envelope.indexOf(">\n");
  const end = envelope.indexOf("\n</cross_session_message>");
  if (start < 0 || end < start) return false;
  return envelope.slice(start + 2, end) === qwenEscapedContent(content);
}
