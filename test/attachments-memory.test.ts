import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HttpAdapter } from "../src/adapters/http/index.ts";
import { ATTACHMENT_LIMITS } from "../src/protocol/index.ts";
import type { ServerProcess } from "./support/server-process.ts";
import { sessionRegistration } from "./support/session-registration.ts";
import { startTeamServer, stopServerProcess } from "./support/team-server.ts";

// Streaming, proven by memory: ten files of the largest size a message may carry move through a
// real `brigade serve` (SQLite) all at once, up and then down, while the server's resident memory
// is sampled. A server (or adapter) that held one whole file per transfer would grow by ten times
// 25 MiB; one that streams grows by a few chunks per transfer.

const FILES = 10;
const SIZE = ATTACHMENT_LIMITS.max_attachment_bytes;
const MIB = 1024 * 1024;
/**
 * Growth allowed over the idle server, MiB: well below the 250 MiB one whole copy of the files
 * takes, and above what streaming costs with the garbage a collector has not freed yet (measured
 * 79 MiB at the peak on the development machine: chunk copies and stream buffers, freed late).
 */
const SERVER_GROWTH_MIB = 150;
/** Growth allowed in this process (the adapter's side of both directions), MiB. */
const CLIENT_GROWTH_MIB = 120;

let root: string;
let server: ServerProcess;
let sender: HttpAdapter;
let recipient: HttpAdapter;

/** The resident set of process `pid`, MiB, from /proc. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match === null ? 0 : Number(match[1]) / 1024;
}

/** Samples the peak RSS of `pid` (and of this process) every 20 ms while `work` runs. */
async function peakWhile<T>(pid: number, work: () => Promise<T>) {
  let server = 0;
  let client = 0;
  const sample = () => {
    server = Math.max(server, rssOf(pid));
    client = Math.max(client, process.memoryUsage.rss() / MIB);
  };
  const timer = setInterval(sample, 20);
  try {
    const value = await work();
    sample();
    return { value, server, client };
  } finally {
    clearInterval(timer);
  }
}

/** Writes a file of SIZE random bytes, a MiB at a time; returns its digest. */
async function makeFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  for (let written = 0; written < SIZE; written += MIB) {
    const piece = randomBytes(Math.min(MIB, SIZE - written));
    hash.update(piece);
    if (!out.write(piece)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  out.end();
  await finished(out);
  return hash.digest("hex");
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "brigade-attach-memory-"));
  ({
    server,
    creator: sender,
    member: recipient,
  } = await startTeamServer({
    dataFile: join(root, "data", "brigade.sqlite"),
    creator: { configDir: join(root, "a") },
    member: { configDir: join(root, "b") },
  }));
}, 120_000);

afterAll(async () => {
  await stopServerProcess(server);
  rmSync(root, { recursive: true, force: true });
});

describe("attachments stream: memory stays bounded while 10 × 25 MiB move", () => {
  test("ten uploads at once, a send naming them, ten downloads at once", async () => {
    const pid = server.child.pid as number;
    const digests: string[] = [];
    for (let i = 0; i < FILES; i++) digests.push(await makeFile(join(root, `file-${i}`)));
    const idleServer = rssOf(pid);
    const idleClient = process.memoryUsage.rss() / MIB;

    const up = await peakWhile(pid, () =>
      Promise.all(
        digests.map((sha256, i) =>
          sender.messageUpload({ sha256, size: SIZE }, createReadStream(join(root, `file-${i}`))),
        ),
      ),
    );
    expect(up.value.map((r) => r.sha256)).toEqual(digests);

    const from = (await sender.sessionRegister(sessionRegistration("sender"))).session_id;
    const to = (await recipient.sessionRegister(sessionRegistration("recipient"))).session_id;
    const attachments = digests.map((sha256, i) => ({ sha256, size: SIZE, name: `file-${i}.bin` }));
    // Ten files of 25 MiB are more than one message may carry (100 MiB): four messages.
    for (let i = 0; i < FILES; i += 4) {
      await sender.messageSend({
        sender_session_id: from,
        recipient_session_id: to,
        body: `files ${i} to ${Math.min(FILES, i + 4) - 1}`,
        attachments: attachments.slice(i, i + 4),
      });
    }

    const down = await peakWhile(pid, () =>
      Promise.all(
        digests.map(async (sha256) => {
          const open = await recipient.messageDownload(sha256);
          const hash = createHash("sha256");
          let size = 0;
          for await (const chunk of open.body) {
            hash.update(chunk);
            size += chunk.byteLength;
          }
          return { sha256: hash.digest("hex"), size };
        }),
      ),
    );
    expect(down.value).toEqual(digests.map((sha256) => ({ sha256, size: SIZE })));

    const serverGrowth = Math.max(up.server, down.server) - idleServer;
    const clientGrowth = Math.max(up.client, down.client) - idleClient;
    console.log(
      `attachments memory: server idle ${idleServer.toFixed(0)} MiB, peak +${serverGrowth.toFixed(0)} MiB; ` +
        `client idle ${idleClient.toFixed(0)} MiB, peak +${clientGrowth.toFixed(0)} MiB; ` +
        `moved ${((2 * FILES * SIZE) / MIB).toFixed(0)} MiB`,
    );
    expect(serverGrowth).toBeLessThan(SERVER_GROWTH_MIB);
    expect(clientGrowth).toBeLessThan(CLIENT_GROWTH_MIB);
  });
});
