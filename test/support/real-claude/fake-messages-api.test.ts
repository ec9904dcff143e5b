// The fake Messages API the real-client suite points Claude Code at: the wire it speaks, its
// script, and what it records, checked without Claude Code.
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import {
  bash,
  DEFAULT_REPLY,
  decide,
  FakeMessagesApi,
  modelTexts,
  modelTranscript,
  say,
  stall,
} from "./index.ts";

const apis: FakeMessagesApi[] = [];
async function start(): Promise<FakeMessagesApi> {
  const api = await FakeMessagesApi.start();
  apis.push(api);
  return api;
}
afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
});

interface Reply {
  readonly status: number;
  readonly type: string;
  readonly text: string;
}

function call(api: FakeMessagesApi, method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${path}`, { method }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", text }),
      );
    });
    req.on("error", reject);
    if (body !== undefined) req.setHeader("content-type", "application/json");
    req.end(body);
  });
}

/** A conversation request body: the tools include Bash. */
function turn(messages: unknown[], stream = true): string {
  return JSON.stringify({
    model: "claude-test",
    stream,
    system: [{ type: "text", text: "You are a test." }],
    tools: [{ name: "Bash", input_schema: {} }],
    messages,
  });
}

/** The `data:` objects of an SSE body, with their event names. */
function events(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk !== "")
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split("\n");
      return {
        event: (eventLine ?? "").replace(/^event: /, ""),
        data: JSON.parse((dataLine ?? "").replace(/^data: /, "")) as Record<string, unknown>,
      };
    });
}

describe("the fake Messages API", () => {
  test("streams a scripted tool call as the API does, then the text after its result", async () => {
    const api = await start();
    api.script(bash("brigade sessions"), say("Two sessions."));
    const first = await call(
      api,
      "POST",
      "/v1/messages?beta=true",
      turn([{ role: "user", content: "hi" }]),
    );
    expect(first.status).toBe(200);
    expect(first.type).toBe("text/event-stream");
    const streamed = events(first.text);
    // The input's JSON is streamed in several deltas, as the API does.
    const names = streamed.map((e) => e.event);
    expect(names.filter((name) => name === "content_block_delta").length).toBeGreaterThan(1);
    expect(names.filter((name, i) => name !== names[i - 1])).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    for (const { event, data } of streamed) expect(data.type).toBe(event);
    expect(streamed[2]?.data.content_block).toMatchObject({
      type: "tool_use",
      name: "Bash",
      input: {},
    });
    const json = streamed
      .filter((e) => e.event === "content_block_delta")
      .map((e) => (e.data.delta as { partial_json: string }).partial_json)
      .join("");
    expect(JSON.parse(json)).toMatchObject({ command: "brigade sessions" });
    expect(streamed.at(-2)?.data.delta).toMatchObject({ stop_reason: "tool_use" });

    const toolUseId = (streamed[2]?.data.content_block as { id?: string } | undefined)?.id;
    const second = await call(
      api,
      "POST",
      "/v1/messages",
      turn([
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: toolUseId, name: "Bash", input: {} }],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: toolUseId, content: "2 online" }],
        },
      ]),
    );
    const text = events(second.text)
      .filter((e) => e.event === "content_block_delta")
      .map((e) => (e.data.delta as { text: string }).text)
      .join("");
    expect(text).toBe("Two sessions.");
    expect(api.pendingSteps).toBe(0);
    expect(api.conversation()).toHaveLength(2);
    expect(modelTexts(api.conversation()[1]?.body).map((t) => t.place)).toEqual([
      "system-prompt",
      "user",
      "tool-use",
      "tool-result",
    ]);
    expect(modelTranscript(api.conversation()[1]?.body)).toContain("[tool-result]\n2 online");
  });

  test("answers without streaming, and with the default reply once the script is empty", async () => {
    const api = await start();
    const reply = await call(
      api,
      "POST",
      "/v1/messages",
      turn([{ role: "user", content: "hi" }], false),
    );
    expect(reply.type).toBe("application/json");
    expect(JSON.parse(reply.text)).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: DEFAULT_REPLY }],
      stop_reason: "end_turn",
    });
  });

  test("a request without the Bash tool is not the conversation and takes no step", async () => {
    const api = await start();
    api.script(say("for the conversation"));
    const side = JSON.stringify({ model: "m", messages: [{ role: "user", content: "title?" }] });
    const reply = await call(api, "POST", "/v1/messages", side);
    expect(JSON.parse(reply.text).content[0].text).toBe(DEFAULT_REPLY);
    expect(api.pendingSteps).toBe(1);
    expect(api.requests[0]?.conversation).toBe(false);
  });

  test("decide chooses from the body; one that throws becomes a reply naming the fault", async () => {
    const api = await start();
    api.script(
      decide((body) => say(`saw ${modelTexts(body).at(-1)?.text}`)),
      decide(() => {
        throw new Error("no frame");
      }),
    );
    const body = turn([{ role: "user", content: "ping" }], false);
    expect(JSON.parse((await call(api, "POST", "/v1/messages", body)).text).content[0].text).toBe(
      "saw ping",
    );
    expect(JSON.parse((await call(api, "POST", "/v1/messages", body)).text).content[0].text).toBe(
      "fake API: the decide step threw: no frame",
    );
  });

  test("every other route and method, bad bodies and a client that hangs up", async () => {
    const api = await start();
    expect(JSON.parse((await call(api, "POST", "/v1/messages/count_tokens", "{}")).text)).toEqual({
      input_tokens: 1,
    });
    expect((await call(api, "GET", "/v1/models")).status).toBe(200);
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const reply = await call(api, method, "/v1/messages");
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.text).type).toBe("error");
    }
    expect((await call(api, "GET", "/../../etc/passwd")).status).toBe(404);
    expect((await call(api, "POST", "/v1/messages", "{not json")).status).toBe(400);
    expect((await call(api, "POST", "/v1/messages", "[]")).status).toBe(400);
    // A client that sends half a body and hangs up leaves the fake serving.
    await new Promise<void>((resolve) => {
      const req = request(`${api.url}/v1/messages`, { method: "POST" });
      req.on("error", () => resolve());
      req.write('{"model":');
      setImmediate(() => {
        req.destroy();
        resolve();
      });
    });
    expect((await call(api, "POST", "/v1/messages", turn([]))).status).toBe(200);
    expect(api.requests.every((r) => r.raw.length <= 200)).toBe(true);
  });

  test("a stalled turn opens its stream at once and finishes when released", async () => {
    const api = await start();
    let release: () => void = () => undefined;
    api.script(
      stall(
        new Promise<void>((resolve) => {
          release = resolve;
        }),
        say("Finally."),
      ),
    );
    const chunks: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const req = request(`${api.url}/v1/messages`, { method: "POST" }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => chunks.push(chunk));
        res.on("end", () => resolve());
      });
      req.on("error", reject);
      req.end(turn([{ role: "user", content: "think" }]));
    });
    await api.waitForRequest((r) => r.conversation, 5_000, "the request");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const early = chunks.join("");
    expect(early).toContain("event: message_start");
    expect(early).not.toContain("content_block_start");
    release();
    await done;
    expect(chunks.join("")).toContain('"text":"Finally."');
  });

  test("waitForRequest resolves on arrival and rejects after its bound naming what it waited for", async () => {
    const api = await start();
    const waiting = api.waitForRequest((r) => r.raw.includes("needle"), 5_000, "the needle");
    await call(api, "POST", "/v1/messages", turn([{ role: "user", content: "needle" }]));
    expect((await waiting).seq).toBe(1);
    await expect(api.waitForRequest(() => false, 50, "nothing")).rejects.toThrow(
      /waiting for nothing/,
    );
  });
});

describe("modelTexts", () => {
  test("anything that is not a request body reads as nothing, and never throws", () => {
    for (const body of [
      undefined,
      null,
      1,
      "x",
      [],
      { messages: 1 },
      { messages: [null, 1, { role: "x" }] },
    ])
      expect(modelTexts(body)).toEqual([]);
    expect(
      modelTexts({
        messages: [
          { role: "system", content: [{ type: "text", text: "s" }, { type: "image" }, 7] },
        ],
      }),
    ).toEqual([{ place: "system", text: "s" }]);
  });
});
