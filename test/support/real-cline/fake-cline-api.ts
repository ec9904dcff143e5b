/**
 * A loopback fake of the OpenAI-compatible chat completions API the Cline CLI talks to (`cline
 * auth -p openai -b <url>/v1`), scripted: each request is answered by the next step of the script
 * (a tool use in Cline's XML form, e.g. `<use_mcp_tool>…`), held until the step's gate opens, so a
 * test decides what the model does and when. Every request body is kept.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One chat message of a request, as Cline sends it. */
export interface ClineChatMessage {
  readonly role: string;
  readonly content: string | readonly { readonly type: string; readonly text?: string }[] | null;
}

/** One recorded request. */
export interface ClineRequest {
  readonly seq: number;
  readonly messages: readonly ClineChatMessage[];
  /** The text parts of the last user message, in order. */
  readonly lastUserParts: readonly string[];
  /** Every text part of every user message, in order. */
  readonly userParts: readonly string[];
}

/** One answer: the assistant text, sent once `gate` (if any) resolved. */
export interface ClineStep {
  readonly gate?: Promise<void>;
  readonly text: () => string;
}

function partsOf(message: ClineChatMessage): string[] {
  if (message.content === null) return [];
  if (typeof message.content === "string") return [message.content];
  return message.content.map((part) => part.text ?? "");
}

/** A step answering `text`, after `gate` when given. */
export function answer(text: string | (() => string), gate?: Promise<void>): ClineStep {
  const of = typeof text === "string" ? () => text : text;
  return gate === undefined ? { text: of } : { gate, text: of };
}

/** Cline's XML form of a call of the MCP tool `tool` of `server` with `args`. */
export function mcpUse(server: string, tool: string, args: Record<string, unknown> = {}): string {
  return `<use_mcp_tool>\n<server_name>${server}</server_name>\n<tool_name>${tool}</tool_name>\n<arguments>\n${JSON.stringify(args)}\n</arguments>\n</use_mcp_tool>`;
}

/** Cline's XML form of running `command` in the shell. */
export function commandUse(command: string): string {
  return `<execute_command>\n<command>${command}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
}

/** Cline's XML form of ending the task with `result`. */
export function completion(result: string): string {
  return `<attempt_completion>\n<result>\n${result}\n</result>\n</attempt_completion>`;
}

/** The fake API on 127.0.0.1, on a free port. */
export class FakeClineApi {
  readonly #server: Server;
  readonly requests: ClineRequest[] = [];
  readonly #steps: ClineStep[] = [];
  readonly #waiters = new Set<() => void>();
  url = "";

  private constructor() {
    this.#server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        if (req.method !== "POST" || !(req.url ?? "").endsWith("/chat/completions")) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model" }] }),
          );
          return;
        }
        let parsed: { messages?: ClineChatMessage[]; stream?: boolean; model?: string };
        try {
          parsed = JSON.parse(body) as typeof parsed;
        } catch {
          res.writeHead(400).end();
          return;
        }
        const messages = parsed.messages ?? [];
        const users = messages.filter((m) => m.role === "user");
        const last = users.at(-1);
        this.requests.push({
          seq: this.requests.length,
          messages,
          lastUserParts: last === undefined ? [] : partsOf(last),
          userParts: users.flatMap(partsOf),
        });
        for (const wake of this.#waiters) wake();
        const step = this.#steps.shift() ?? answer(completion("Nothing more."));
        void Promise.resolve(step.gate).then(() => {
          const text = step.text();
          const id = `c-${this.requests.length}`;
          const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
          const chunk = { id, object: "chat.completion.chunk", created: 1, model: parsed.model };
          if (parsed.stream === true) {
            res.writeHead(200, { "content-type": "text/event-stream" });
            res.write(
              `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }] })}\n\n`,
            );
            res.write(
              `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage })}\n\n`,
            );
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
                { index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" },
              ],
              usage,
            }),
          );
        });
      });
    });
  }

  static async start(): Promise<FakeClineApi> {
    const api = new FakeClineApi();
    await new Promise<void>((resolve) => api.#server.listen(0, "127.0.0.1", resolve));
    const { port } = api.#server.address() as AddressInfo;
    api.url = `http://127.0.0.1:${port}/v1`;
    return api;
  }

  /** Replaces what the next requests are answered with, in order. */
  script(...steps: ClineStep[]): void {
    this.#steps.splice(0, this.#steps.length, ...steps);
  }

  /** The first request from index `from` on that `holds`, waited for up to `ms`. */
  async waitForRequest(
    holds: (request: ClineRequest) => boolean,
    ms: number,
    what: string,
    from = 0,
  ): Promise<ClineRequest> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.requests.slice(from).find(holds);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no request: ${what} (${this.requests.length} seen)`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 500));
        this.#waiters.add(wake);
      });
    }
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
