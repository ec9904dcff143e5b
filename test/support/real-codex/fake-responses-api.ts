/**
 * A loopback fake of the OpenAI Responses API for one Codex process (docs/49-codex.md): it answers
 * `POST /v1/responses` from a script (text, or a call of a function tool such as an MCP server's
 * `inbox`, the turn going on after its result), streaming Server-Sent Events as Codex reads them,
 * and records every request so a test can assert the exact text the model read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer to one turn request. */
export type ResponsesStep =
  | { readonly say: string }
  | {
      readonly call: string;
      readonly namespace: string | undefined;
      readonly arguments: Readonly<Record<string, unknown>>;
    }
  | { readonly decide: (request: RecordedResponsesRequest) => ResponsesStep }
  | { readonly after: Promise<unknown>; readonly then: ResponsesStep };

/** `{ say }`: the model answers `text` and ends its turn. */
export function say(text: string): ResponsesStep {
  return { say: text };
}

/**
 * The model calls the tool `name` of the MCP server `server` (Codex's namespace `mcp__<server>`)
 * with `args`; Codex runs it and asks again with the result.
 *
 * @example mcpCall("brigade", "inbox", { wait_s: 0 })
 */
export function mcpCall(
  server: string,
  name: string,
  args: Readonly<Record<string, unknown>> = {},
): ResponsesStep {
  return { call: name, namespace: `mcp__${server}`, arguments: args };
}

/**
 * The step chosen from the request the model reads (e.g. reply to the message it just read). A
 * `decide` that throws or returns another `decide` becomes a reply naming the fault, so the test's
 * own assertion fails with it in view.
 */
export function decide(
  choose: (request: RecordedResponsesRequest) => ResponsesStep,
): ResponsesStep {
  return { decide: choose };
}

/**
 * A turn that stays busy until `after` settles: the stream opens at once (`response.created`) and
 * the rest of `then` follows when `after` resolves or rejects. `then` may be a `decide`, chosen
 * when the request arrives.
 *
 * @example api.script(stall(sent, mcpCall("brigade", "inbox")));
 */
export function stall(after: Promise<unknown>, then: ResponsesStep): ResponsesStep {
  return { after, then };
}

/** One text the model read, in order, with its place in the request. */
export interface ModelText {
  /** `developer`, `user`, `assistant` (a message's role), `call` (a function call), `output` (a tool result). */
  readonly place: "developer" | "user" | "assistant" | "call" | "output" | "system";
  readonly text: string;
}

/** One request as the fake received it. */
export interface RecordedResponsesRequest {
  /** 1, 2, … in arrival order. */
  readonly seq: number;
  readonly method: string;
  /** The path without the query (`/v1/responses`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as received (UTF-8). */
  readonly raw: string;
  /** The body parsed as JSON, `undefined` when it is not JSON. */
  readonly body: unknown;
  /** True for a model request of a turn (`POST /v1/responses`), answered from the script. */
  readonly turn: boolean;
  /** The texts the model read, in order ({@link modelTexts}). */
  readonly texts: readonly ModelText[];
  /** Arrival time, the body read (`performance.timeOrigin + performance.now()`, ms): comparable across processes on the machine. */
  readonly at: number;
}

/** What the model says when the script is empty. */
export const DEFAULT_REPLY = "Noted.";

/** The most a request body may hold; a bigger one is refused with 413. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

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

function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) =>
    isRecord(part) && typeof part.text === "string" ? [part.text] : [],
  );
}

/**
 * The tools a Responses request offers the model, by name (a namespace's as `<namespace>.<name>`),
 * so a failed wait says whether Codex had loaded an MCP server's tools. Never throws.
 */
export function offeredTools(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.tools)) return [];
  return body.tools.flatMap((tool): string[] => {
    if (!isRecord(tool)) return [];
    const name = typeof tool.name === "string" ? tool.name : String(tool.type ?? "?");
    if (!Array.isArray(tool.tools)) return [name];
    return tool.tools.flatMap((inner) =>
      isRecord(inner) && typeof inner.name === "string" ? [`${name}.${inner.name}`] : [],
    );
  });
}

/**
 * The texts a Responses request gives the model, in order: `instructions` (as `system`), every
 * message's text parts under its role, each function call as `<namespace>.<name> <arguments>`,
 * each function call output's text parts. Never throws.
 *
 * @example modelTexts(body).filter((t) => t.place === "output")
 */
export function modelTexts(body: unknown): ModelText[] {
  if (!isRecord(body)) return [];
  const texts: ModelText[] = [];
  if (typeof body.instructions === "string")
    texts.push({ place: "system", text: body.instructions });
  if (!Array.isArray(body.input)) return texts;
  for (const item of body.input) {
    if (!isRecord(item)) continue;
    if (item.type === "message" || (item.type === undefined && typeof item.role === "string")) {
      const role = item.role;
      const place =
        role === "developer" || role === "user" || role === "assistant" || role === "system"
          ? role
          : "user";
      for (const text of contentTexts(item.content)) texts.push({ place, text });
    } else if (item.type === "function_call") {
      const name = typeof item.name === "string" ? item.name : "";
      const space = typeof item.namespace === "string" ? `${item.namespace}.` : "";
      const args = typeof item.arguments === "string" ? item.arguments : "";
      texts.push({ place: "call", text: `${space}${name} ${args}` });
    } else if (item.type === "function_call_output") {
      for (const text of contentTexts(item.output)) texts.push({ place: "output", text });
    }
  }
  return texts;
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

function errorBody(message: string): unknown {
  return { error: { type: "invalid_request_error", message } };
}

function resolveStep(
  step: ResponsesStep | undefined,
  request: RecordedResponsesRequest,
): ResponsesStep | undefined {
  if (step === undefined || !("decide" in step)) return step;
  try {
    const chosen = step.decide(request);
    return "decide" in chosen || "after" in chosen
      ? say("fake API: a decide step chose another decide or stall step")
      : chosen;
  } catch (error) {
    return say(
      `fake API: the decide step threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The Server-Sent Events of one response holding `item`, as the Responses API streams them:
 * `response.created`, `response.output_item.added`, for text one `response.output_text.delta`,
 * `response.output_item.done`, `response.completed` (with usage). Each event is
 * `event: <type>` and `data: <json>` lines and a blank line.
 */
export function responseEvents(id: string, model: string, item: Record<string, unknown>): string[] {
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  };
  const base = { id, object: "response", model };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item },
  ];
  if (item.type === "message") {
    const text = contentTexts(item.content).join("");
    events.push({
      type: "response.output_text.delta",
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: text,
    });
  }
  events.push(
    { type: "response.output_item.done", output_index: 0, item },
    {
      type: "response.completed",
      response: { ...base, status: "completed", output: [item], usage },
    },
  );
  return events.map((event, i) => {
    const data = JSON.stringify({ ...event, sequence_number: i });
    return `event: ${String(event.type)}\ndata: ${data}\n\n`;
  });
}

/**
 * The fake. `start()` listens on 127.0.0.1 (a free port); give Codex `url` + `/v1` as a model
 * provider's `base_url` with `wire_api = "responses"`.
 *
 * Routes: `POST /v1/responses` (streamed; every such request is a turn request, answered with the
 * next script step or {@link DEFAULT_REPLY}); anything else → 404. A body that is not a JSON
 * object → 400; over 64 MiB → 413.
 *
 * @example
 * const api = await FakeResponsesApi.start();
 * api.script(mcpCall("brigade", "inbox"), say("Read."));
 * const seen = await api.waitForRequest((r) => r.texts.some((t) => t.place === "output"), 30_000, "the inbox result");
 */
export class FakeResponsesApi {
  readonly url: string;
  readonly requests: RecordedResponsesRequest[] = [];
  readonly #server: Server;
  readonly #steps: ResponsesStep[] = [];
  readonly #listeners = new Set<() => void>();

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  /** Starts a fake on a free loopback port. */
  static start(): Promise<FakeResponsesApi> {
    let api: FakeResponsesApi | undefined;
    const server = createServer((req, res) => {
      api?.handle(req, res);
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        api = new FakeResponsesApi(server, `http://127.0.0.1:${port}`);
        resolve(api);
      });
    });
  }

  /** Appends steps: each answers the next turn request, in order. */
  script(...steps: readonly ResponsesStep[]): void {
    this.#steps.push(...steps);
  }

  /** Steps not yet used. */
  get pendingSteps(): number {
    return this.#steps.length;
  }

  /** The turn requests, in order. */
  turns(): RecordedResponsesRequest[] {
    return this.requests.filter((request) => request.turn);
  }

  /**
   * Resolves with the first request at index `from` or later that `matches`; rejects after
   * `timeoutMs` naming `what` and the last turn request's texts.
   */
  waitForRequest(
    matches: (request: RecordedResponsesRequest) => boolean,
    timeoutMs: number,
    what: string,
    from = 0,
  ): Promise<RecordedResponsesRequest> {
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
        const last = this.turns().at(-1);
        const read = last === undefined ? "(none)" : JSON.stringify(last.texts.slice(-6), null, 1);
        const offered = last === undefined ? [] : offeredTools(last.body);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what} at the fake Responses API (${this.requests.length} requests; the last turn request offered the tools ${offered.join(", ") || "(none)"}; its last texts:\n${read.slice(-4000)})`,
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
        if (!refused) sendJson(res, 413, errorBody("request too large"));
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
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const body = parseJson(raw);
    const turn = method === "POST" && path === "/v1/responses" && isRecord(body);
    const request: RecordedResponsesRequest = {
      seq: this.requests.length + 1,
      method,
      path,
      headers: req.headers,
      raw,
      body,
      turn,
      texts: modelTexts(body),
      at,
    };
    this.requests.push(request);
    for (const listener of [...this.#listeners]) listener();
    if (method !== "POST" || path !== "/v1/responses") {
      sendJson(res, 404, errorBody("not found"));
      return;
    }
    if (!isRecord(body)) {
      sendJson(res, 400, errorBody("the body is not a JSON object"));
      return;
    }
    const scripted = this.#steps.shift();
    const after = scripted !== undefined && "after" in scripted ? scripted.after : undefined;
    const planned = scripted !== undefined && "after" in scripted ? scripted.then : scripted;
    const step = resolveStep(planned, request);
    const seq = request.seq;
    const item: Record<string, unknown> =
      step !== undefined && "call" in step && "arguments" in step
        ? {
            type: "function_call",
            id: `fc_fake_${seq}`,
            call_id: `call_fake_${seq}`,
            name: step.call,
            ...(step.namespace === undefined ? {} : { namespace: step.namespace }),
            arguments: JSON.stringify(step.arguments),
            status: "completed",
          }
        : {
            type: "message",
            id: `msg_fake_${seq}`,
            role: "assistant",
            status: "completed",
            content: [
              {
                type: "output_text",
                text: step !== undefined && "say" in step ? step.say : DEFAULT_REPLY,
                annotations: [],
              },
            ],
          };
    const model = typeof body.model === "string" ? body.model : "fake-model";
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const events = responseEvents(`resp_fake_${seq}`, model, item);
    // response.created goes out at once, as the API sends it before generating.
    res.write(events[0]);
    void settled(after).then(() => {
      for (const event of events.slice(1)) res.write(event);
      res.end();
    });
  }
}
