/**
 * A loopback fake of the Anthropic Messages API for one Claude Code session: it answers the
 * conversation's requests from a script (reply text, or call the Bash tool and continue after
 * its result), answers every other request sensibly, and records every request so a test can
 * assert the exact text the model read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { type Answer, type AnswerBlock, answerEvents, answerJson } from "./messages-stream.ts";
import { modelTranscript } from "./model-view.ts";

/** One scripted answer to one conversation request. */
export type ScriptStep =
  | { readonly say: string }
  | { readonly bash: string; readonly description?: string }
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly decide: (request: unknown) => ScriptStep }
  | { readonly after: Promise<unknown>; readonly then: ScriptStep };

/** `{ say: text }`: the model answers `text` and ends its turn. */
export function say(text: string): ScriptStep {
  return { say: text };
}

/** `{ bash: command }`: the model calls the Bash tool with `command`; the turn goes on after its result. */
export function bash(command: string, description = "Run a Brigade command"): ScriptStep {
  return { bash: command, description };
}

/**
 * `{ tool, input }`: the model calls Claude Code's tool `name` (`Read`, …) with `input`; the turn
 * goes on after its result.
 *
 * @example tool("Read", { file_path: "/home/eli/src/billing/notes.md" })
 */
export function tool(name: string, input: Readonly<Record<string, unknown>>): ScriptStep {
  return { tool: name, input };
}

/**
 * `{ decide }`: the step is chosen from the request body the model reads, as a model would
 * (e.g. run the reply command a delivered frame names). `decide` may not return another `decide`.
 */
export function decide(choose: (request: unknown) => ScriptStep): ScriptStep {
  return { decide: choose };
}

/**
 * `{ after, then }`: a turn that stays busy until `after` settles (a long generation): the stream
 * opens at once (`message_start`, `ping`), and the rest of the `then` step follows when `after`
 * resolves or rejects. `then` is chosen when the request arrives.
 *
 * @example api.script(stall(released, say("Done."))); // … release() when the test has looked
 */
export function stall(after: Promise<unknown>, then: ScriptStep): ScriptStep {
  return { after, then };
}

/** One request as the fake received it. */
export interface RecordedRequest {
  /** 1, 2, … in arrival order. */
  readonly seq: number;
  readonly method: string;
  /** The path without the query (`/v1/messages`). */
  readonly path: string;
  /** The full request target (`/v1/messages?beta=true`). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as received (UTF-8). */
  readonly raw: string;
  /** The body parsed as JSON, `undefined` when it is not JSON. */
  readonly body: unknown;
  /** Arrival time (`performance.timeOrigin + performance.now()`, ms): comparable across processes on the machine. */
  readonly at: number;
  /** True for a `POST /v1/messages` of the session's conversation (its tools include `Bash`). */
  readonly conversation: boolean;
  /** What the fake answered it (`undefined` for a request that is not a model call). */
  readonly answer: Answer | undefined;
}

/** The most a request body may hold; a bigger one is refused with 413. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What the model says when the script is empty. */
export const DEFAULT_REPLY = "Noted.";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function hasBashTool(body: unknown): boolean {
  return (
    isRecord(body) &&
    Array.isArray(body.tools) &&
    body.tools.some((tool) => isRecord(tool) && tool.name === "Bash")
  );
}

/**
 * A `decide` step resolved against the body; a `decide` that throws or chooses another `decide`
 * becomes a reply naming the fault (the model's answer, so the test's own assertion then fails
 * with it in view; a throw here would take down the fake's request handler).
 */
function resolveStep(step: ScriptStep | undefined, body: unknown): ScriptStep | undefined {
  if (step === undefined || !("decide" in step)) return step;
  try {
    const chosen = step.decide(body);
    return "decide" in chosen || "after" in chosen
      ? say("fake API: a decide step chose another decide or stall step")
      : chosen;
  } catch (error) {
    return say(
      `fake API: the decide step threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Resolves when `promise` settles either way (at once for `undefined`). */
function settled(promise: Promise<unknown> | undefined): Promise<void> {
  return (promise ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

function errorBody(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}

/**
 * The fake. `start()` listens on 127.0.0.1 (a free port); point `ANTHROPIC_BASE_URL` at `url`.
 *
 * Routes: `POST /v1/messages` (streaming when the body says `stream: true`, else JSON);
 * `POST /v1/messages/count_tokens` → `{input_tokens}` (a quarter of the body's length);
 * `GET /v1/models` → the requested model only; anything else → 404 in the API's error shape.
 * A body that is not JSON → 400; over 64 MiB → 413.
 *
 * @example
 * const api = await FakeMessagesApi.start();
 * api.script(bash("brigade sessions"), say("Listed."));
 * // … type a prompt into the session …
 * const seen = await api.waitForRequest((r) => r.conversation && r.raw.includes("s-"), 30_000, "the tool result");
 */
export class FakeMessagesApi {
  readonly url: string;
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  readonly #steps: ScriptStep[] = [];
  readonly #listeners = new Set<() => void>();
  #answers = 0;

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  /** Starts a fake on a free loopback port. */
  static start(): Promise<FakeMessagesApi> {
    let api: FakeMessagesApi | undefined;
    const server = createServer((req, res) => {
      api?.handle(req, res);
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        api = new FakeMessagesApi(server, `http://127.0.0.1:${port}`);
        resolve(api);
      });
    });
  }

  /** Appends steps to the script: each answers the next conversation request, in order. */
  script(...steps: readonly ScriptStep[]): void {
    this.#steps.push(...steps);
  }

  /** Steps not yet used. */
  get pendingSteps(): number {
    return this.#steps.length;
  }

  /** The conversation's requests, in order. */
  conversation(): RecordedRequest[] {
    return this.requests.filter((request) => request.conversation);
  }

  /**
   * Resolves with the first request, at index `from` or later, that `matches`; rejects after
   * `timeoutMs` naming `what` and the last conversation request's texts (for the failure output).
   */
  waitForRequest(
    matches: (request: RecordedRequest) => boolean,
    timeoutMs: number,
    what: string,
    from = 0,
  ): Promise<RecordedRequest> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.requests.slice(from).find(matches);
        if (found === undefined) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const last = this.conversation().at(-1);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what} at the fake Messages API (${this.requests.length} requests; the last conversation request read:\n${last === undefined ? "(none)" : modelTranscript(last.body).slice(-4000)})`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      const listener = (): void => {
        check();
      };
      this.#listeners.add(listener);
      check();
    });
  }

  /** Stops listening and drops every open connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        if (!refused) sendJson(res, 413, errorBody("request_too_large", "request too large"));
        refused = true;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!refused) this.answer(req, res, Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", () => res.destroy());
  }

  private answer(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const at = performance.timeOrigin + performance.now();
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? "/";
    const method = req.method ?? "GET";
    const body = parseJson(raw);
    const isMessages = method === "POST" && path === "/v1/messages";
    const conversation = isMessages && hasBashTool(body);
    const planned = isMessages && isRecord(body) ? this.nextAnswer(body, conversation) : undefined;
    const answer = planned?.answer;
    this.requests.push({
      seq: this.requests.length + 1,
      method,
      path,
      url,
      headers: req.headers,
      raw,
      body,
      at,
      conversation,
      answer,
    });
    for (const listener of [...this.#listeners]) listener();

    if (method === "POST" && path === "/v1/messages/count_tokens") {
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
    } else if (method === "GET" && path === "/v1/models") {
      sendJson(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
    } else if (!isMessages) {
      sendJson(res, 404, errorBody("not_found_error", "not found"));
    } else if (answer === undefined) {
      sendJson(res, 400, errorBody("invalid_request_error", "the body is not a JSON object"));
    } else if (isRecord(body) && body.stream === true) {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      const events = answerEvents(answer);
      // message_start and ping go out at once, as the API sends them before generating.
      for (const event of events.slice(0, 2)) res.write(event);
      void settled(planned?.after).then(() => {
        for (const event of events.slice(2)) res.write(event);
        res.end();
      });
    } else {
      const text = answerJson(answer);
      void settled(planned?.after).then(() => {
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
        });
        res.end(text);
      });
    }
  }

  private nextAnswer(
    body: Record<string, unknown>,
    conversation: boolean,
  ): { answer: Answer; after: Promise<unknown> | undefined } {
    this.#answers += 1;
    const id = `msg_fake_${this.#answers}`;
    const model = typeof body.model === "string" ? body.model : "claude-fake";
    const scripted = conversation ? this.#steps.shift() : undefined;
    const after = scripted !== undefined && "after" in scripted ? scripted.after : undefined;
    const step = resolveStep(
      scripted !== undefined && "after" in scripted ? scripted.then : scripted,
      body,
    );
    let content: AnswerBlock[];
    let stopReason: Answer["stopReason"] = "end_turn";
    if (step === undefined) content = [{ type: "text", text: DEFAULT_REPLY }];
    else if ("say" in step) content = [{ type: "text", text: step.say }];
    else if ("decide" in step || "after" in step)
      content = [{ type: "text", text: "fake API: a stall step's then is another stall step" }];
    else if ("tool" in step) {
      content = [
        { type: "tool_use", id: `toolu_fake_${this.#answers}`, name: step.tool, input: step.input },
      ];
      stopReason = "tool_use";
    } else {
      content = [
        {
          type: "tool_use",
          id: `toolu_fake_${this.#answers}`,
          name: "Bash",
          input: { command: step.bash, description: step.description ?? "Run a command" },
        },
      ];
      stopReason = "tool_use";
    }
    return { answer: { id, model, content, stopReason }, after };
  }
}
