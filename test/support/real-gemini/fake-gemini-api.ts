/**
 * A loopback fake of the Gemini API for the real Gemini CLI: it records every request body and
 * answers `streamGenerateContent` from a script (text, or a function call the CLI then runs), and
 * any other model call with a plain text answer. Only `127.0.0.1` is ever listened on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted model turn: a text answer, or a call of one of the CLI's tools. */
export type GeminiReply =
  | { readonly text: string }
  | { readonly call: { readonly name: string; readonly args: Record<string, unknown> } };

/** A scripted turn, or a step run when the turn's request arrives that then gives the reply. */
export type GeminiScriptStep = GeminiReply | (() => Promise<GeminiReply>);

/** A request the CLI sent to a model (its JSON body), with its path. */
export interface GeminiRequest {
  readonly path: string;
  readonly body: {
    readonly contents?: readonly {
      readonly role?: string;
      readonly parts?: readonly Record<string, unknown>[];
    }[];
  };
}

/**
 * The text of every part of `request` in order: user text, and each function response's `output`
 * (a tool's result) or `error` (a tool's error result, as Gemini CLI words it).
 */
export function requestTexts(request: GeminiRequest): string[] {
  const texts: string[] = [];
  for (const content of request.body.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (typeof part.text === "string") texts.push(part.text);
      const response = (
        part.functionResponse as { response?: { output?: unknown; error?: unknown } } | undefined
      )?.response;
      if (typeof response?.output === "string") texts.push(response.output);
      if (typeof response?.error === "string") texts.push(response.error);
    }
  }
  return texts;
}

function chunk(reply: GeminiReply): string {
  const part = "text" in reply ? { text: reply.text } : { functionCall: reply.call };
  return JSON.stringify({
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
  });
}

/** The fake; `start()` listens on an ephemeral loopback port. */
export class FakeGeminiApi {
  readonly requests: GeminiRequest[] = [];
  readonly #script: GeminiScriptStep[] = [];
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts a fake answering `"ok"` to every model turn until {@link script} says otherwise. */
  static async start(): Promise<FakeGeminiApi> {
    let fake: FakeGeminiApi | undefined;
    const server = createServer((req, res) => fake?.handle(req, res));
    fake = new FakeGeminiApi(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  /** `http://127.0.0.1:<port>`: the CLI's `GOOGLE_GEMINI_BASE_URL`. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /**
   * Sets the answers of the next model turns, in order, in place of whatever an earlier case left
   * unused; past them every turn answers `"ok"`. A step that is a function runs when its turn's
   * request has arrived (a test acts mid-turn there).
   */
  script(...replies: GeminiScriptStep[]): void {
    this.#script.splice(0, this.#script.length, ...replies);
  }

  /** The streamed model requests (tool loop turns), oldest first. */
  turns(): GeminiRequest[] {
    return this.requests.filter((r) => r.path.includes(":streamGenerateContent"));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      let body: GeminiRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8")) as GeminiRequest["body"];
      } catch {
        // recorded as an empty body
      }
      this.requests.push({ path, body });
      if (path.includes(":streamGenerateContent")) {
        const step = this.#script.shift() ?? { text: "ok" };
        const reply = typeof step === "function" ? step() : Promise.resolve(step);
        reply.then(
          (answer) => {
            res.writeHead(200, { "content-type": "text/event-stream" });
            res.end(`data: ${chunk(answer)}\n\n`);
          },
          () => {
            res.writeHead(500, { "content-type": "application/json" });
            res.end("{}");
          },
        );
      } else if (path.includes(":generateContent")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(chunk({ text: "ok" }));
      } else if (path.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ totalTokens: 10 }));
      } else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end("{}");
      }
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
