import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCall, type Json, mintToken, teamOfTwo } from "../../test/support/api-call.ts";
import { type RunningServer, startServer } from "./serve.ts";
import { parseServerLimits } from "./server-limits.ts";

// A real `brigade serve` on loopback (SQLite; the store contract holds PostgreSQL to the same
// answers): uploads streamed in, refused when their bytes are not what they declared, downloads
// whole and by range, and the uploader / recipient access rule with its one not_found.

let dir: string;
let server: RunningServer;
/** The server's `error` log events (a client's doing must never be one). */
const errors: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brigade-blob-routes-"));
  const limits = parseServerLimits(["team_storage_mib=2"]);
  if (!limits.ok) throw new Error(limits.message);
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: join(dir, "brigade.sqlite"),
    logger: { log: (level, event) => (level === "error" ? errors.push(event) : undefined) },
    limits: limits.limits,
  });
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

function upload(token: string, team: string, bytes: Uint8Array, declared = {}) {
  const d = { sha256: sha(bytes), size: bytes.byteLength, ...declared };
  return fetch(`${server.url}/v1/teams/${team}/blobs/${d.sha256}?size=${d.size}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: bytes,
  });
}

async function download(token: string, team: string, digest: string, range?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (range !== undefined) headers.range = range;
  const response = await fetch(`${server.url}/v1/teams/${team}/blobs/${digest}`, { headers });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function envelope(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}

/** Writes `head` and then `body` pieces on a raw connection; resolves with all it read. */
function raw(pieces: readonly (string | Uint8Array)[], endAfter: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
      if (received.includes("\r\n\r\n") && /"ok":/.test(received)) socket.end();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(received));
    for (const piece of pieces) socket.write(piece);
    if (endAfter) socket.end();
  });
}

describe("blob upload and download over HTTP", () => {
  test("an upload streams in and downloads byte for byte, whole and by range", async () => {
    const { a, teamRef } = await teamOfTwo(server.url, "whole");
    const bytes = randomBytes(700_000);
    const put = await upload(a, teamRef, bytes);
    expect(put.status).toBe(200);
    expect((await envelope(put)).result).toEqual({ sha256: sha(bytes), size: bytes.byteLength });

    const whole = await download(a, teamRef, sha(bytes));
    expect(whole.response.status).toBe(200);
    expect(whole.response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(whole.response.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(whole.bytes).equals(bytes)).toBe(true);

    const tail = await download(a, teamRef, sha(bytes), "bytes=300000-");
    expect(tail.response.status).toBe(206);
    expect(tail.response.headers.get("content-range")).toBe(`bytes 300000-699999/700000`);
    expect(Buffer.from(tail.bytes).equals(bytes.subarray(300_000))).toBe(true);

    const middle = await download(a, teamRef, sha(bytes), "bytes=262140-262150");
    expect(middle.response.status).toBe(206);
    expect(Buffer.from(middle.bytes).equals(bytes.subarray(262_140, 262_151))).toBe(true);

    const past = await download(a, teamRef, sha(bytes), "bytes=700000-");
    expect(past.response.status).toBe(416);
    expect(past.response.headers.get("content-range")).toBe("bytes */700000");

    const empty = new Uint8Array(0);
    expect((await upload(a, teamRef, empty)).status).toBe(200);
    const none = await download(a, teamRef, sha(empty), "bytes=0-");
    expect(none.response.status).toBe(200);
    expect(none.bytes.byteLength).toBe(0);
  });

  test("bytes that do not match the declaration are refused and nothing is kept", async () => {
    const { a, teamRef } = await teamOfTwo(server.url, "mismatch");
    const bytes = randomBytes(300_000);
    const wrongDigest = await upload(a, teamRef, bytes, { sha256: sha(randomBytes(8)) });
    expect(wrongDigest.status).toBe(400);
    expect(((await envelope(wrongDigest)).error as Json).details).toEqual({
      field: "sha256",
      reason: "digest_mismatch",
    });
    // A declared length that disagrees with Content-Length is refused before a byte is read.
    const shorter = await upload(a, teamRef, bytes, { size: bytes.byteLength - 1 });
    expect(shorter.status).toBe(400);
    expect(((await envelope(shorter)).error as Json).details).toEqual({
      field: "size",
      reason: "size_mismatch",
    });
    // A chunked body longer than declared is refused, and the answer still reaches the client.
    const digest = sha(bytes);
    const head =
      `PUT /v1/teams/${teamRef}/blobs/${digest}?size=1000 HTTP/1.1\r\nHost: x\r\n` +
      `Authorization: Bearer ${a}\r\nContent-Type: application/octet-stream\r\n` +
      "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    const chunk = bytes.subarray(0, 4000);
    const longer = await raw(
      [head, `${chunk.byteLength.toString(16)}\r\n`, chunk, "\r\n0\r\n\r\n"],
      false,
    );
    expect(longer).toMatch(/^HTTP\/1\.1 400/);
    expect(longer).toContain('"reason":"size_mismatch"');
    // A chunked body that ends before its declared size is refused too.
    const early = await raw(
      [
        head.replace("size=1000", `size=${bytes.byteLength}`),
        `${chunk.byteLength.toString(16)}\r\n`,
        chunk,
        "\r\n0\r\n\r\n",
      ],
      false,
    );
    expect(early).toMatch(/^HTTP\/1\.1 400/);
    expect(early).toContain('"reason":"size_mismatch"');
    // A connection cut mid-body leaves nothing either, and is the client's doing, not an error.
    await raw([head.replace("size=1000", `size=${bytes.byteLength}`), "fa0\r\n", chunk], true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toEqual([]);

    for (const declared of [digest, sha(randomBytes(8))]) {
      expect((await download(a, teamRef, declared)).response.status).toBe(404);
    }
    // Nothing of those uploads counts against the team: a full quota's worth still fits.
    const big = randomBytes(2 * 1024 * 1024);
    expect((await upload(a, teamRef, big)).status).toBe(200);
  });

  test("a blob is read by its uploader and its recipients only; everyone else meets one not_found", async () => {
    const { a, b, teamRef, sa, sb } = await teamOfTwo(server.url, "access");
    const bytes = randomBytes(1000);
    const digest = sha(bytes);
    expect((await upload(a, teamRef, bytes)).status).toBe(200);
    const unknown = await download(a, teamRef, sha(randomBytes(4)));
    expect(unknown.response.status).toBe(404);
    const unknownText = Buffer.from(unknown.bytes).toString();

    const beforeSend = await download(b, teamRef, digest);
    expect(beforeSend.response.status).toBe(404);
    expect(Buffer.from(beforeSend.bytes).toString()).toBe(unknownText);
    // B cannot name a blob it never uploaded in a send of its own (the same not_found).
    const borrowed = await apiCall(server.url, "POST", `/v1/teams/${teamRef}/messages`, {
      token: b,
      body: {
        sender_session_id: sb,
        recipient_session_id: sa,
        body: "yours",
        attachments: [{ sha256: digest, size: 1000, name: "a.bin" }],
      },
    });
    expect(borrowed.status).toBe(404);

    const sent = await apiCall(server.url, "POST", `/v1/teams/${teamRef}/messages`, {
      token: a,
      body: {
        sender_session_id: sa,
        recipient_session_id: sb,
        body: "see attached",
        attachments: [{ sha256: digest, size: 1000, name: "a.bin" }],
      },
    });
    expect(sent.status).toBe(200);
    const inbox = await apiCall(server.url, "GET", `/v1/teams/${teamRef}/sessions/${sb}/messages`, {
      token: b,
    });
    const messages = (inbox.json.result as { messages: Json[] }).messages;
    expect(messages[0]?.attachments).toEqual([{ sha256: digest, size: 1000, name: "a.bin" }]);
    const afterSend = await download(b, teamRef, digest);
    expect(afterSend.response.status).toBe(200);
    expect(Buffer.from(afterSend.bytes).equals(bytes)).toBe(true);

    // A third member, and another team's member naming this team, learn nothing.
    const outsider = await mintToken(server.url);
    const other = await download(outsider, teamRef, digest);
    expect(other.response.status).toBe(403);
    const { a: c, teamRef: otherTeam } = await teamOfTwo(server.url, "elsewhere");
    const elsewhere = await download(c, otherTeam, digest);
    expect(elsewhere.response.status).toBe(404);
    expect(Buffer.from(elsewhere.bytes).toString()).toBe(unknownText);
  });

  test("the team quota refuses new bytes clearly, never bytes it already holds", async () => {
    const { a, b, teamRef } = await teamOfTwo(server.url, "quota");
    const first = randomBytes(1536 * 1024);
    expect((await upload(a, teamRef, first)).status).toBe(200);
    const over = await upload(a, teamRef, randomBytes(600 * 1024));
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("60");
    // Refused before its body was read, then answered once the body was: the connection stays.
    expect(over.headers.get("connection")).toBe("keep-alive");
    const error = (await envelope(over)).error as Json;
    expect(error.details).toEqual({
      reason: "team_storage_full",
      limit: String(2 * 1024 * 1024),
      unit: "bytes",
    });
    // The same bytes again cost nothing, whoever sends them.
    expect((await upload(b, teamRef, first)).status).toBe(200);
  });

  test("an upload must say it is bytes", async () => {
    const { a, teamRef } = await teamOfTwo(server.url, "media");
    const bytes = randomBytes(10);
    const response = await fetch(`${server.url}/v1/teams/${teamRef}/blobs/${sha(bytes)}?size=10`, {
      method: "PUT",
      headers: { authorization: `Bearer ${a}`, "content-type": "text/plain" },
      body: bytes,
    });
    expect(response.status).toBe(415);
    const missing = await fetch(`${server.url}/v1/teams/${teamRef}/blobs/${sha(bytes)}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${a}`, "content-type": "application/octet-stream" },
      body: bytes,
    });
    expect(missing.status).toBe(400);
    expect(((await envelope(missing)).error as Json).details).toEqual({
      field: "size",
      reason: "required",
    });
  });
});
