/**
 * A loopback fake of the OpenAI-compatible chat completions API Qwen Code talks to
 * (`OPENAI_BASE_URL=<url>/v1`, any key): every request body is kept, every answer is one short
 * assistant text (streamed when asked), so each turn ends at once; or, where a test chooses it
 * ({@link FakeChatApi.callTool}), one streamed call of a tool.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One chat message of a request, as Qwen Code sends it. */
export interface ChatMessage {
  readonly role: string;
  readonly content: string | readonly { readonly type: string; readonly text?: string }[] | null;
}

/** One recorded request body. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly stream?: boolean;
}

/** A tool call the model makes: the tool's name as offered and its arguments. */
export interface ToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The names of the tools a request offers the model. */
export function offeredTools(request: ChatRequest): string[] {
  return (request.tools ?? []).map((t) => t.function.name);
}

/** The text of a message: its string, or its text parts joined by a newline. */
export function messageText(message: ChatMessage | undefined): string {
  if (message === undefined || message.content === null) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => part.text ?? "").join("\n");
}

/** The fake API on 127.0.0.1, on a free port. */
export class FakeChatApi {
  readonly #server: Server;
  readonly #requests: readonly ChatRequest[];
  readonly #arrivals: readonly number[];
  readonly url: string;
  /**
   * Chooses the model's answer to each streamed request: a tool call, or `undefined` for the usual
   * text. Called once per request, in order (a test keeps its own steps).
   */
  callTool: ((request: ChatRequest) => ToolCall | undefined) | undefined;

  private constructor(
    server: Server,
    url: string,
    requests: readonly ChatRequest[],
    arrivals: readonly number[],
  ) {
    this.#server = server;
    this.url = url;
    this.#requests = requests;
    this.#arrivals = arrivals;
  }

  static async start(): Promise<FakeChatApi> {
    const requests: ChatRequest[] = [];
    let fake: FakeChatApi | undefined;
    const arrivals: number[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const at = performance.timeOrigin + performance.now();
        if (req.method !== "POST" || !(req.url ?? "").endsWith("/chat/completions")) {
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
        requests.push(parsed);
        arrivals.push(at);
        const id = `c-${requests.length}`;
        const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
        if (parsed.stream === true) {
          const call = fake?.callTool?.(parsed);
          res.writeHead(200, { "content-type": "text/event-stream" });
          const event = (data: unknown): void => {
            res.write(`data: ${JSON.stringify(data)}\n\n`);
          };
          const chunk = { id, object: "chat.completion.chunk", created: 1, model: parsed.model };
          const delta =
            call === undefined
              ? { role: "assistant", content: "ok" }
              : {
                  role: "assistant",
                  tool_calls: [
                    {
                      index: 0,
                      id: `call_${requests.length}`,
                      type: "function",
                      function: { name: call.name, arguments: JSON.stringify(call.args) },
                    },
                  ],
                };
          event({ ...chunk, choices: [{ index: 0, delta, finish_reason: null }] });
          const finish = call === undefined ? "stop" : "tool_calls";
          event({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage });
          res.end("data: [DONE]\n\n");
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id,
            object: "chat.completion",
            created: 1,
            model: parsed.model,
            choices: [
              { index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" },
            ],
            usage,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeChatApi(server, `http://127.0.0.1:${port}/v1`, requests, arrivals);
    return fake;
  }

  /** Every request so far, oldest first. */
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

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
