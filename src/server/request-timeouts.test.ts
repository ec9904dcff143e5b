import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCall, type Json, teamOfTwo } from "../../test/support/api-call.ts";
import { silentLogger } from "./logger.ts";
import { httpServerTimeouts } from "./request-timeouts.ts";
import { type RunningServer, startServer } from "./serve.ts";

// A real `brigade serve` on loopback with short request limits: a client that never finishes its
// request is answered 408 and cut off, while a watch, whose request is complete at once, streams on.

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brigade-request-timeouts-"));
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: join(dir, "brigade.sqlite"),
    logger: silentLogger,
    requestTimeouts: { requestMs: 1_500, headersMs: 1_000, checkEveryMs: 100 },
  });
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `text` on a raw connection; resolves with all it read once the server closed it. */
function rawUntilClosed(text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(received));
    socket.write(text);
  });
}

describe("request limits", () => {
  test("the head is never allowed longer than the whole request", () => {
    expect(httpServerTimeouts({ requestMs: 1_000, headersMs: 5_000, checkEveryMs: 10 })).toEqual({
      requestTimeout: 1_000,
      headersTimeout: 1_000,
      connectionsCheckingInterval: 10,
    });
  });

  test("a body that never arrives in full is answered 408 and the connection closed", async () => {
    const received = await rawUntilClosed(
      "POST /v1/principals HTTP/1.1\r\nHost: brigade.test\r\nContent-Type: application/json\r\n" +
        "Content-Length: 10\r\n\r\n{}",
    );
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  test("a head that never ends is answered 408 and the connection closed", async () => {
    const received = await rawUntilClosed("GET /v1/health HTTP/1.1\r\nHost: brigade.test\r\n");
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  test("a watch streams on past the request limit: its request was complete at once", async () => {
    const { a, b, teamRef, sa: sender, sb: recipient } = await teamOfTwo(server.url);
    const watch = await fetch(`${server.url}/v1/teams/${teamRef}/sessions/${recipient}/watch`, {
      headers: { authorization: `Bearer ${b}`, accept: "text/event-stream" },
    });
    expect(watch.status).toBe(200);
    const reader = (watch.body as ReadableStream<Uint8Array>).getReader();
    // Well past the 1.5 s request limit and several of Node's checks.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const sent = (
      await apiCall(server.url, "POST", `/v1/teams/${teamRef}/messages`, {
        token: a,
        body: { sender_session_id: sender, recipient_session_id: recipient, body: "still there?" },
      })
    ).json.result as Json;
    let text = "";
    const decoder = new TextDecoder();
    while (!text.includes(sent.message_id as string)) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
  });
});
