import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { silentLogger } from "./logger.ts";
import { type RunningServer, startServer } from "./serve.ts";

// A real `brigade serve` on loopback, stopped while raw sockets hold it: a header sent half way
// must not hold the stop, and a request being answered must not be cut.

let dir: string;
let server: RunningServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "brigade-shutdown-"));
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: join(dir, "brigade.sqlite"),
    logger: silentLogger,
  });
});

afterEach(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw connection that collects what it reads and says when it closes. */
function rawSocket(): { socket: Socket; read: () => string; closed: Promise<void> } {
  const socket = connect(server.port, "127.0.0.1");
  let text = "";
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, read: () => text, closed };
}

/** One full round trip: the server has read every byte sent to it before this began. */
async function roundTrip(): Promise<void> {
  const response = await fetch(`${server.url}/v1/health`, { headers: { connection: "close" } });
  expect(response.status).toBe(200);
}

test("a half-sent header is closed at once; a request being answered still finishes", async () => {
  const half = rawSocket();
  half.socket.write("GET / HTTP/1.1\r\nHost: brigade.test\r\n");
  // A principal mint whose body has not arrived yet: the request is being answered.
  const busy = rawSocket();
  busy.socket.write(
    "POST /v1/principals HTTP/1.1\r\nHost: brigade.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n",
  );
  await roundTrip();
  const stopped = server.stop();
  // Closed while the busy request still waits for its body: the stop does not wait for it.
  await half.closed;
  expect(half.read()).toBe("");
  busy.socket.write("{}");
  await busy.closed;
  await stopped;
  expect(busy.read()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  const body = busy.read().slice(busy.read().indexOf("\r\n\r\n") + 4);
  expect(JSON.parse(body)).toMatchObject({
    ok: true,
    result: { principal_ref: expect.any(String) },
  });
});
