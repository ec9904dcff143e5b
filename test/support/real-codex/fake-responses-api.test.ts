import { afterEach, describe, expect, test } from "vitest";
import {
  DEFAULT_REPLY,
  decide,
  FakeResponsesApi,
  mcpCall,
  modelTexts,
  say,
  stall,
} from "./fake-responses-api.ts";

let api: FakeResponsesApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** POSTs `body` and returns the `data:` documents of the stream. */
async function post(fake: FakeResponsesApi, body: unknown, path = "/v1/responses") {
  const response = await fetch(`${fake.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const events = text
    .split("\n\n")
    .filter((block) => block.startsWith("event: "))
    .map((block) => {
      const [eventLine, dataLine] = block.split("\n");
      const data = JSON.parse((dataLine ?? "").slice("data: ".length)) as Record<string, unknown>;
      return { event: (eventLine ?? "").slice("event: ".length), data };
    });
  return { status: response.status, type: response.headers.get("content-type"), events };
}

const TURN = {
  model: "fake-model",
  stream: true,
  input: [
    { type: "message", role: "developer", content: [{ type: "input_text", text: "rules" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] },
    {
      type: "function_call",
      name: "inbox",
      namespace: "mcp__brigade",
      arguments: '{"wait_s":0}',
      call_id: "c1",
    },
    {
      type: "function_call_output",
      call_id: "c1",
      output: [
        { type: "input_text", text: "Wall time: 0.1 seconds\nOutput:" },
        { type: "input_text", text: "the message" },
      ],
    },
  ],
};

describe("FakeResponsesApi", () => {
  test("answers a turn with the scripted function call of an MCP tool, then text, then the default", async () => {
    api = await FakeResponsesApi.start();
    api.script(mcpCall("brigade", "send", { to: "s-1", body: "hi" }), say("Sent."));

    const first = await post(api, TURN);
    expect(first.status).toBe(200);
    expect(first.type).toBe("text/event-stream");
    expect(first.events.map((e) => e.event)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_item.done",
      "response.completed",
    ]);
    const item = first.events[2]?.data.item as Record<string, unknown>;
    expect(item).toMatchObject({ type: "function_call", name: "send", namespace: "mcp__brigade" });
    expect(JSON.parse(item.arguments as string)).toEqual({ to: "s-1", body: "hi" });
    const completed = first.events[3]?.data.response as Record<string, unknown>;
    expect(completed.status).toBe("completed");
    expect(completed.output).toEqual([item]);

    const second = await post(api, TURN);
    expect(second.events.map((e) => e.event)).toContain("response.output_text.delta");
    expect(second.events[2]?.data.delta).toBe("Sent.");
    const third = await post(api, TURN);
    expect(third.events[2]?.data.delta).toBe(DEFAULT_REPLY);
    expect(api.turns()).toHaveLength(3);
  });

  test("records what the model read, in order, with its place", async () => {
    api = await FakeResponsesApi.start();
    await post(api, TURN);
    expect(api.requests[0]?.texts).toEqual([
      { place: "developer", text: "rules" },
      { place: "user", text: "hello" },
      { place: "call", text: 'mcp__brigade.inbox {"wait_s":0}' },
      { place: "output", text: "Wall time: 0.1 seconds\nOutput:" },
      { place: "output", text: "the message" },
    ]);
    expect(modelTexts("not a body")).toEqual([]);
  });

  test("a decide step chooses from the request; a throwing one names its fault", async () => {
    api = await FakeResponsesApi.start();
    api.script(
      decide((request) => say(`read ${request.texts.length}`)),
      decide(() => {
        throw new Error("boom");
      }),
    );
    expect((await post(api, TURN)).events[2]?.data.delta).toBe("read 5");
    expect((await post(api, TURN)).events[2]?.data.delta).toBe(
      "fake API: the decide step threw: boom",
    );
  });

  test("a stall step opens the stream at once and finishes it when released", async () => {
    api = await FakeResponsesApi.start();
    let release = (): void => {};
    api.script(stall(new Promise<void>((r) => (release = r)), say("after")));
    const response = await fetch(`${api.url}/v1/responses`, {
      method: "POST",
      body: JSON.stringify(TURN),
    });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error("no body");
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith("event: response.created\n")).toBe(true);
    expect(first).not.toContain("after");
    release();
    let rest = "";
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toContain('"delta":"after"');
    expect(rest).toContain("event: response.completed");
  });

  test("waitForRequest resolves on a later request and times out naming what it waited for", async () => {
    api = await FakeResponsesApi.start();
    const fake = api;
    const waiting = fake.waitForRequest((r) => r.raw.includes("hello"), 5_000, "the hello");
    await post(fake, TURN);
    expect((await waiting).seq).toBe(1);
    await expect(fake.waitForRequest(() => false, 50, "nothing")).rejects.toThrow(
      /waiting for nothing at the fake Responses API/,
    );
  });

  test("anything but POST /v1/responses is a 404; a body that is not JSON a 400; neither uses the script", async () => {
    api = await FakeResponsesApi.start();
    api.script(say("kept"));
    expect((await post(api, TURN, "/v1/chat/completions")).status).toBe(404);
    const bad = await fetch(`${api.url}/v1/responses`, { method: "POST", body: "{" });
    expect(bad.status).toBe(400);
    expect(api.pendingSteps).toBe(1);
    expect(api.turns()).toHaveLength(0);
  });
});
