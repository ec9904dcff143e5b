import { describe, expect, test } from "vitest";
import { senderEnvelope } from "../../../test/support/fake-watcher-adapter.ts";
import { BapError, type WatchEvent } from "../../protocol/index.ts";
import type { AdapterLogger } from "../adapter-logger.ts";
import { callServer } from "./http-client.ts";
import { HttpWatch } from "./http-watch.ts";

// A hostile server's answers, made in-process: `fetch` is injected, so no socket is needed.

const silent: AdapterLogger = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  child: () => silent,
};

/**
 * A body that does not end: chunks of `chunkBytes` up to 64 MiB (an endless stream, as far as an
 * 8 MiB limit can tell; it still closes at 64 MiB, so a reader without a limit ends too), or
 * nothing at all when `chunkBytes` is 0; an abort errors it, as a real fetch's body does.
 */
function endlessBody(
  signal: AbortSignal | null | undefined,
  chunkBytes: number,
): { body: ReadableStream<Uint8Array>; sent: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(chunkBytes).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.addEventListener("abort", () => controller.error(signal.reason));
    },
    pull(controller) {
      if (chunkBytes === 0) return new Promise(() => {});
      if (sent >= 64 * 1024 * 1024) {
        controller.close();
        return undefined;
      }
      sent += chunkBytes;
      controller.enqueue(chunk);
      return undefined;
    },
  });
  return { body, sent: () => sent };
}

describe("a server's answer never costs unbounded memory or time", () => {
  test("an endless 200 answer is refused as internal after at most its 8 MiB limit, long before the call's timeout", async () => {
    let sent = (): number => 0;
    const fetch = (async (_url: string, init?: RequestInit) => {
      const endless = endlessBody(init?.signal, 64 * 1024);
      sent = endless.sent;
      return new Response(endless.body, {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }) as typeof globalThis.fetch;
    const transport = { baseUrl: "http://127.0.0.1:1", fetch, timeoutMs: 600_000, logger: silent };
    const failure = await callServer(transport, { method: "GET", path: "/v1/x" }, (v) => ({
      ok: true,
      value: v,
    })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BapError);
    expect((failure as BapError).toProtocolError().code).toBe("internal");
    // Pulled at most the limit plus what the stream had queued ahead.
    expect(sent()).toBeLessThan(9 * 1024 * 1024);
  });

  test("a watch refusal whose body never finishes is a drop within the connect budget, and the watch retries", async () => {
    let calls = 0;
    const fetch = (async (_url: string, init?: RequestInit) => {
      calls++;
      return new Response(endlessBody(init?.signal, 0).body, {
        status: 401,
        headers: { "content-type": "application/json" },
      });
    }) as typeof globalThis.fetch;
    const drops: unknown[] = [];
    const recording = {
      ...silent,
      info: (event: string, fields?: Record<string, unknown>) => {
        if (event === "watch_stream_dropped") drops.push(fields?.detail);
      },
    };
    const watch = new HttpWatch({
      sessionId: "s-1",
      target: () => ({ baseUrl: "http://127.0.0.1:1", token: "tok", teamRef: "t-1" }),
      fetch,
      logger: recording,
      connectTimeoutMs: 20,
      idleTimeoutMs: 60_000,
      backoff: { first: 1, max: 1 },
      ack: async () => ({ acked: [], unknown: [] }),
      heartbeat: async () => {
        throw new Error("not used");
      },
      closeSession: async () => undefined,
    });
    const events: WatchEvent[] = [];
    const reading = (async () => {
      for await (const e of watch) events.push(e);
    })();
    while (calls < 3) await new Promise((r) => setTimeout(r, 10));
    await watch.close();
    await reading;
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(events).toEqual([]);
    // The drop names its cause: the connect budget ran out while the refusal was read.
    expect(drops.length).toBeGreaterThanOrEqual(2);
    expect(new Set(drops)).toEqual(new Set(["connect_timeout"]));
  });
});

describe("a watch stream faster than its reader", () => {
  /**
   * A watch on a server that sends `total` messages as fast as the stream is pulled, 100 a chunk,
   * then nothing; `sent()` counts what it produced and `fetches()` its connections.
   */
  function floodedWatch(total: number, idleTimeoutMs: number) {
    let sent = 0;
    let fetches = 0;
    const encoder = new TextEncoder();
    const fetch = (async (_url: string, init?: RequestInit) => {
      fetches += 1;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
          controller.enqueue(encoder.encode("event: ready\ndata: {}\n\n"));
        },
        pull(controller) {
          if (sent >= total) return new Promise(() => {});
          let text = "";
          for (let i = 0; i < 100; i += 1) {
            text += `event: message\ndata: ${JSON.stringify(senderEnvelope(sent + i))}\n\n`;
          }
          sent += 100;
          controller.enqueue(encoder.encode(text));
          return undefined;
        },
      });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
    }) as typeof globalThis.fetch;
    const watch = new HttpWatch({
      sessionId: "s-1",
      target: () => ({ baseUrl: "http://127.0.0.1:1", token: "tok", teamRef: "t-1" }),
      fetch,
      logger: silent,
      connectTimeoutMs: 60_000,
      idleTimeoutMs,
      backoff: { first: 1, max: 1 },
      ack: async () => ({ acked: [], unknown: [] }),
      heartbeat: async () => {
        throw new Error("not used");
      },
      closeSession: async () => undefined,
    });
    return { watch, sent: () => sent, fetches: () => fetches };
  }

  test("is read no further while its reader holds back, and loses nothing once it reads again", async () => {
    const total = 20_000;
    const { watch, sent } = floodedWatch(total, 600_000);
    const events = watch[Symbol.asyncIterator]();
    expect((await events.next()).value?.event).toBe("ready");
    // The reader holds back: wait until the stream is no longer pulled.
    let before = -1;
    while (sent() !== before) {
      before = sent();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sent()).toBeLessThan(total / 2);
    let messages = 0;
    while (messages < total) {
      const next = await events.next();
      if (next.value?.event === "message") messages += 1;
    }
    expect(messages).toBe(total);
    await watch.close();
  });

  test("a reader holding back longer than the idle timeout is not taken for a silent stream", async () => {
    const total = 3_000;
    const { watch, fetches } = floodedWatch(total, 300);
    const events = watch[Symbol.asyncIterator]();
    expect((await events.next()).value?.event).toBe("ready");
    // Three idle timeouts of holding back, with the queue full.
    await new Promise((r) => setTimeout(r, 1_000));
    const ids: string[] = [];
    let fetchesWhenReadAgain: number | undefined;
    while (ids.length < total) {
      const next = await events.next();
      const value = next.value as { event?: string; message?: { message_id: string } } | undefined;
      fetchesWhenReadAgain ??= fetches();
      if (value?.event === "message" && value.message !== undefined) {
        ids.push(value.message.message_id);
      }
    }
    // Read when the reader came back, before the stream's own quiet end can time out.
    expect(fetchesWhenReadAgain).toBe(1);
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => `m-${i}`));
    await watch.close();
  });
});
