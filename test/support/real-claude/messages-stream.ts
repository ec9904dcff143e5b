/**
 * The Anthropic Messages API's answer to one request, as the real API sends it: a JSON message,
 * or the same message as Server-Sent Events (`message_start`, `ping`, per content block
 * `content_block_start` / `content_block_delta` / `content_block_stop`, `message_delta`,
 * `message_stop`).
 */

/** One content block of an assistant answer. */
export type AnswerBlock =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_use";
      readonly id: string;
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
    };

/** An assistant answer: its blocks and why it stopped. */
export interface Answer {
  readonly id: string;
  readonly model: string;
  readonly content: readonly AnswerBlock[];
  readonly stopReason: "end_turn" | "tool_use";
}

const USAGE = { input_tokens: 12, output_tokens: 1 };

/** The non-streaming body: one `message` object. */
export function answerJson(answer: Answer): string {
  return JSON.stringify({
    id: answer.id,
    type: "message",
    role: "assistant",
    model: answer.model,
    content: answer.content,
    stop_reason: answer.stopReason,
    stop_sequence: null,
    usage: { ...USAGE, output_tokens: 8 },
  });
}

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Splits `text` into pieces of at most `size` code units, as the API streams deltas. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.length === 0 ? [""] : out;
}

/** The streamed body: the events, in order, each `event: <name>\ndata: <json>\n\n`. */
export function answerEvents(answer: Answer): string[] {
  const events = [
    event("message_start", {
      type: "message_start",
      message: {
        id: answer.id,
        type: "message",
        role: "assistant",
        model: answer.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: USAGE,
      },
    }),
    event("ping", { type: "ping" }),
  ];
  answer.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(
        event("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        }),
      );
      for (const text of pieces(block.text, 64))
        events.push(
          event("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "text_delta", text },
          }),
        );
    } else {
      events.push(
        event("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial_json of pieces(JSON.stringify(block.input), 48))
        events.push(
          event("content_block_delta", {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json },
          }),
        );
    }
    events.push(event("content_block_stop", { type: "content_block_stop", index }));
  });
  events.push(
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: answer.stopReason, stop_sequence: null },
      usage: { output_tokens: 8 },
    }),
    event("message_stop", { type: "message_stop" }),
  );
  return events;
}
