/**
 * A loopback fake of the OpenAI-compatible chat completions API OpenCode talks to through its
 * built-in `@ai-sdk/openai-compatible` provider (docs/49-opencode.md): every request body is
 * kept; a conversation's answer is a short text, or a call of a tool the test asked for; a turn
 * can be held open (`hold`) until the test releases it, so a message can arrive during a busy turn.
 * OpenCode's title requests (system prompt "You are a title generator") are answered at once and
 * kept apart.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One chat message of a request, as OpenCode sends it. */
export interface ChatMessage {
  readonly role: string;
  readonly content: string | readonly { readonly type: string; readonly text?: string }[] | null;
  readonly tool_calls?: readonly { readonly function: { readonly name: string } }[];
}

/** One recorded request body. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly stream?: boolean;
}

/** The text of a message: its string, or its text parts joined by a newline. */
export function messageText(message: ChatMessage | undefined): string {
  if (message === undefined || message.content === null) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => part.text ?? "").join("\n");
}

function isTitleRequest(request: ChatRequest): boolean {
  return messageText(request.messages[0]).startsWith("You are a title generator");
}

/** The fake API on 127.0.0.1, on a free port. */
export class FakeOpenCodeModel {
  readonly #server: Server;
  readonly #requests: ChatRequest[] = [];
  readonly #arrivals: number[] = [];
  readonly #held: (() => void)[] = [];
  /** The tool the model calls at its next conversation request (then cleared), if any. */
  callTool: string | undefined;
  /** The arguments of that call, chosen from the request (default: none, `{}`). */
  callArgs: ((request: ChatRequest) => Readonly<Record<string, unknown>>) | undefined;
  /** Whether conversation requests wait for {@link release}. */
  hold = false;
  readonly url: string;

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  static async start(): Promise<FakeOpenCodeModel> {
    let fake: FakeOpenCodeModel | undefined;
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => fake?.answer(req.method, req.url ?? "", body, res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeOpenCodeModel(server, `http://127.0.0.1:${port}/v1`);
    return fake;
  }

  private answer(
    method: string | undefined,
    url: string,
    body: string,
    res: import("node:http").ServerResponse,
  ): void {
    const at = performance.timeOrigin + performance.now();
    if (method !== "POST" || !url.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let parsed: ChatRequest;
    try {
      parsed = JSON.parse(body) as ChatRequest;
    } catch {
      res.writeHead(400).end();
      return;
    }
    const title = isTitleRequest(parsed);
    if (!title) {
      this.#requests.push(parsed);
      this.#arrivals.push(at);
    }
    const calling =
      !title && this.callTool !== undefined && parsed.messages.at(-1)?.role === "user";
    const tool = calling ? this.callTool : undefined;
    const args = calling ? JSON.stringify(this.callArgs?.(parsed) ?? {}) : "{}";
    if (calling) {
      this.callTool = undefined;
      this.callArgs = undefined;
    }
    const send = (): void => {
      const chunk = { id: "c-1", object: "chat.completion.chunk", created: 1, model: parsed.model };
      const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
      res.writeHead(200, { "content-type": "text/event-stream" });
      const event = (data: unknown): void => {
        res.write(`data: ${JSON.stringify(data)}\n\n`);
      };
      const delta = calling
        ? {
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: `call_${this.#requests.length}`,
                type: "function",
                function: { name: tool, arguments: args },
              },
            ],
          }
        : { role: "assistant", content: title ? "Title" : "ok" };
      event({ ...chunk, choices: [{ index: 0, delta, finish_reason: null }] });
      event({
        ...chunk,
        choices: [{ index: 0, delta: {}, finish_reason: calling ? "tool_calls" : "stop" }],
        usage,
      });
      res.end("data: [DONE]\n\n");
    };
    if (this.hold && !title) this.#held.push(send);
    else send();
  }

  /** Every conversation request so far (title requests left out), oldest first. */
  requests(): readonly ChatRequest[] {
    return this.#requests;
  }

  /**
   * When each request of {@link requests} arrived, same index: its body read, ms
   * (`performance.timeOrigin + performance.now()`, comparable across processes on the machine).
   */
  arrivals(): readonly number[] {
    return this.#arrivals;
  }

  /** How many conversation requests are held open now. */
  heldCount(): number {
    return this.#held.length;
  }

  /** Stops holding and answers every held request. */
  release(): void {
    this.hold = false;
    for (const send of this.#held.splice(0)) send();
  }

  async close(): Promise<void> {
    this.release();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
