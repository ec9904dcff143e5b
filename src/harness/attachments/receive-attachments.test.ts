import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import {
  BapError,
  type BlobDownload,
  type DownloadOptions,
  notFoundError,
} from "../../protocol/index.ts";
import { InboundPipeline } from "../inbound/index.ts";
import {
  cleanAttachmentName,
  isReceivedFileId,
  MAX_CLEAN_NAME,
  receivedFileId,
} from "./clean-name.ts";
import { MessageFiles } from "./message-files.ts";
import { receiveAttachments } from "./receive-attachments.ts";
import { sweepUploads } from "./sweep-uploads.ts";
import { PROJECT_UPLOADS_FOLDER, resolveUploadsRoot } from "./uploads-root.ts";

const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/**
 * A fake `messageDownload` over `blobs` (by digest), in chunks of `chunk` bytes; `failAfter`
 * bytes into a download it throws once (a lost connection); `serve` overrides the bytes served.
 */
function fakeAdapter(
  blobs: Map<string, Uint8Array>,
  options: { chunk?: number; failAfter?: number; serve?: (digest: string) => Uint8Array } = {},
) {
  const calls: { sha256: string; offset: number }[] = [];
  let failAfter = options.failAfter;
  const adapter = {
    async messageDownload(sha256: string, o?: DownloadOptions): Promise<BlobDownload> {
      const offset = o?.offset ?? 0;
      calls.push({ sha256, offset });
      const real = blobs.get(sha256);
      if (real === undefined) throw new BapError(notFoundError());
      const bytes = options.serve?.(sha256) ?? real;
      const chunk = options.chunk ?? 4;
      const fail = failAfter;
      failAfter = undefined;
      async function* body(): AsyncIterable<Uint8Array> {
        let sent = 0;
        for (let i = offset; i < bytes.length; i += chunk) {
          if (fail !== undefined && sent >= fail) throw new Error("connection reset");
          const piece = bytes.subarray(i, Math.min(bytes.length, i + chunk));
          sent += piece.length;
          yield piece;
        }
      }
      return { sha256, size: real.length, offset, body: body() };
    },
  };
  return { adapter, calls };
}

const BINARY = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff);
const TEXT = new TextEncoder().encode("the failing log\n");

function message(attachments: { bytes: Uint8Array; name: string }[]) {
  return {
    message_id: "m-1",
    created_at: "2026-10-02T09:15:42Z",
    attachments: attachments.map((a) => ({
      sha256: sha(a.bytes),
      size: a.bytes.length,
      name: a.name,
    })),
  };
}

function blobsOf(...all: Uint8Array[]): Map<string, Uint8Array> {
  return new Map(all.map((b) => [sha(b), b]));
}

describe("receiveAttachments", () => {
  test("writes each blob verified, 0600, under its id and clean name, with the message's time", async () => {
    const dir = testTempDir("brigade-recv-");
    const { adapter } = fakeAdapter(blobsOf(BINARY, TEXT));
    const m = message([
      { bytes: BINARY, name: "core.bin" },
      { bytes: TEXT, name: '../x"; rm -rf ~ `$(id)`.log' },
    ]);
    const r = await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir });
    if (!r.ok) throw new Error(r.reason);
    expect(r.files.map((f) => f.name)).toEqual(["core.bin", "._x___rm_-rf______id__.log"]);
    for (const [i, f] of r.files.entries()) {
      const id = receivedFileId("s-1", "m-1", i, m.attachments[i]?.sha256 ?? "");
      expect(f.path).toBe(join(dir, `${id}-${f.name}`));
      const st = statSync(f.path);
      expect(st.mode & 0o777).toBe(0o600);
      expect(st.mtimeMs).toBe(Date.parse("2026-10-02T09:15:42Z"));
    }
    expect(sha(readFileSync(r.files[0]?.path ?? ""))).toBe(sha(BINARY));
    expect(readFileSync(r.files[1]?.path ?? "", "utf8")).toBe("the failing log\n");
    // No partial file is left behind.
    expect(readdirSync(dir).filter((n) => n.endsWith(".part"))).toEqual([]);
  });

  test("a message without attachments downloads nothing", async () => {
    const { adapter, calls } = fakeAdapter(new Map());
    const r = await receiveAttachments({
      adapter,
      sessionId: "s-1",
      message: { message_id: "m-1", created_at: "2026-10-02T09:15:42Z" },
      dir: undefined,
    });
    expect(r).toEqual({ ok: true, files: [] });
    expect(calls).toEqual([]);
  });

  test("bytes that are not the blob are refused and nothing is left at the final path", async () => {
    const dir = testTempDir("brigade-recv-");
    const forged = new Uint8Array(BINARY);
    forged[10] = (forged[10] ?? 0) ^ 1;
    const { adapter } = fakeAdapter(blobsOf(BINARY), { serve: () => forged });
    const r = await receiveAttachments({
      adapter,
      sessionId: "s-1",
      message: message([{ bytes: BINARY, name: "a.bin" }]),
      dir,
    });
    expect(r).toEqual({ ok: false, reason: "mismatch", index: 0 });
    expect(readdirSync(dir).filter((n) => !n.endsWith(".part"))).toEqual([]);
  });

  test("a longer body than the blob is refused", async () => {
    const dir = testTempDir("brigade-recv-");
    const { adapter } = fakeAdapter(blobsOf(TEXT), {
      serve: () => new Uint8Array([...TEXT, 1, 2, 3]),
    });
    const r = await receiveAttachments({
      adapter,
      sessionId: "s-1",
      message: message([{ bytes: TEXT, name: "a.txt" }]),
      dir,
    });
    expect(r.ok ? "ok" : r.reason).toBe("mismatch");
  });

  test("a lost connection keeps the partial file, and the next attempt resumes at its end", async () => {
    const dir = testTempDir("brigade-recv-");
    const { adapter, calls } = fakeAdapter(blobsOf(BINARY), { chunk: 50, failAfter: 100 });
    const m = message([{ bytes: BINARY, name: "a.bin" }]);
    const first = await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir });
    expect(first).toEqual({ ok: false, reason: "download_failed", index: 0 });
    const second = await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir });
    if (!second.ok) throw new Error(second.reason);
    expect(calls.map((c) => c.offset)).toEqual([0, 100]);
    expect(sha(readFileSync(second.files[0]?.path ?? ""))).toBe(sha(BINARY));
  });

  test("a file already received is taken as it is; a link at its path is refused", async () => {
    const dir = testTempDir("brigade-recv-");
    const { adapter, calls } = fakeAdapter(blobsOf(TEXT));
    const m = message([{ bytes: TEXT, name: "a.txt" }]);
    const first = await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir });
    if (!first.ok) throw new Error(first.reason);
    const again = await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir });
    expect(again).toEqual(first);
    expect(calls.length).toBe(1);

    const other = testTempDir("brigade-recv-");
    const id = receivedFileId("s-1", "m-1", 0, sha(TEXT));
    writeFileSync(join(other, "target"), "not ours to touch\n");
    symlinkSync(join(other, "target"), join(other, `${id}-a.txt`));
    const linked = await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir: other });
    expect(linked).toEqual({ ok: false, reason: "path_taken", index: 0 });
    expect(readFileSync(join(other, "target"), "utf8")).toBe("not ours to touch\n");
  });

  test("a link planted at the partial path is never followed", async () => {
    const dir = testTempDir("brigade-recv-");
    const id = receivedFileId("s-1", "m-1", 0, sha(TEXT));
    writeFileSync(join(dir, "victim"), "keep\n");
    symlinkSync(join(dir, "victim"), join(dir, `.${id}.part`));
    const { adapter } = fakeAdapter(blobsOf(TEXT));
    const r = await receiveAttachments({
      adapter,
      sessionId: "s-1",
      message: message([{ bytes: TEXT, name: "a.txt" }]),
      dir,
    });
    expect(r.ok).toBe(false);
    expect(readFileSync(join(dir, "victim"), "utf8")).toBe("keep\n");
  });

  test("a blob the server does not have is not_found; no uploads folder and no download are said", async () => {
    const dir = testTempDir("brigade-recv-");
    const m = message([{ bytes: TEXT, name: "a.txt" }]);
    const { adapter } = fakeAdapter(new Map());
    expect(await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir })).toEqual({
      ok: false,
      reason: "not_found",
      index: 0,
    });
    expect(
      await receiveAttachments({ adapter, sessionId: "s-1", message: m, dir: undefined }),
    ).toEqual({ ok: false, reason: "no_uploads_folder" });
    expect(await receiveAttachments({ adapter: {}, sessionId: "s-1", message: m, dir })).toEqual({
      ok: false,
      reason: "no_download",
    });
  });
});

describe("cleanAttachmentName", () => {
  test("examples", () => {
    expect(cleanAttachmentName("report.pdf")).toBe("report.pdf");
    expect(cleanAttachmentName("../../etc/passwd")).toBe("._._etc_passwd");
    expect(cleanAttachmentName("..")).toBe("file");
    expect(cleanAttachmentName("")).toBe("file");
    expect(cleanAttachmentName("ｒｅｐｏｒｔ.txt")).toBe("______.txt");
    expect(cleanAttachmentName(`${"a".repeat(300)}.png`)).toBe(`${"a".repeat(196)}.png`);
  });

  test("property: only safe characters, no '..', at most 200, never empty", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (name) => {
        const clean = cleanAttachmentName(name);
        expect(clean).toMatch(/^[A-Za-z0-9._-]+$/);
        expect(clean).not.toContain("..");
        expect(clean).not.toBe(".");
        expect(clean.length).toBeLessThanOrEqual(MAX_CLEAN_NAME);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("sweepUploads", () => {
  test("removes received files older than the window, nothing else", () => {
    const dir = testTempDir("brigade-sweep-");
    const id = receivedFileId("s-1", "m-1", 0, sha(TEXT));
    const old = join(dir, `${id}-old.txt`);
    const partial = join(dir, `.${id}.part`);
    const fresh = join(dir, `${receivedFileId("s-1", "m-2", 0, sha(TEXT))}-new.txt`);
    const mine = join(dir, "notes.txt");
    // Another program's upload in a shared folder, named as LLMSafeSpaces names its own.
    const foreign = join(dir, "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-theirs.txt");
    const foreignPartial = join(dir, ".0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.part");
    const linkTarget = join(dir, `${receivedFileId("s-1", "m-3", 0, sha(TEXT))}-link.txt`);
    for (const p of [old, partial, fresh, mine, foreign, foreignPartial]) writeFileSync(p, "x");
    symlinkSync(mine, linkTarget);
    const now = Date.parse("2026-10-20T00:00:00Z");
    const longAgo = Date.parse("2026-10-01T00:00:00Z") / 1000;
    for (const p of [old, partial, mine, foreign, foreignPartial]) utimesSync(p, longAgo, longAgo);
    expect(sweepUploads(dir, now, 7 * 24 * 3600)).toBe(2);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(linkTarget)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(foreignPartial)).toBe(true);
  });

  test("a received file's id checks itself; another UUID does not pass", () => {
    const id = receivedFileId("s-1", "m-1", 0, sha(TEXT));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(isReceivedFileId(id)).toBe(true);
    expect(isReceivedFileId("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")).toBe(false);
    const flipped = `${id.slice(0, 35)}${id.endsWith("0") ? "1" : "0"}`;
    expect(isReceivedFileId(flipped)).toBe(false);
    expect(receivedFileId("s-2", "m-1", 0, sha(TEXT))).not.toBe(id);
  });
});

describe("resolveUploadsRoot", () => {
  test("prefers a writable /workspace/uploads", () => {
    const workspace = testTempDir("brigade-ws-");
    expect(
      resolveUploadsRoot({ project: "/nowhere", env: process.env, workspaceUploads: workspace }),
    ).toEqual({ ok: true, dir: workspace, kind: "workspace" });
  });

  test("else a folder in the project, excluded from git once", () => {
    const project = testTempDir("brigade-proj-");
    execFileSync("git", ["init", "-q", project]);
    const options = {
      project,
      env: process.env,
      workspaceUploads: join(project, "no-such-folder"),
    };
    const root = resolveUploadsRoot(options);
    expect(root).toEqual({ ok: true, dir: join(project, PROJECT_UPLOADS_FOLDER), kind: "project" });
    resolveUploadsRoot(options);
    const exclude = readFileSync(join(project, ".git", "info", "exclude"), "utf8");
    expect(exclude.split("\n").filter((l) => l === `/${PROJECT_UPLOADS_FOLDER}/`).length).toBe(1);
    writeFileSync(join(project, PROJECT_UPLOADS_FOLDER, "x.txt"), "x");
    const status = execFileSync("git", ["-C", project, "status", "--porcelain"], {
      encoding: "utf8",
    });
    expect(status).toBe("");
    expect(statSync(join(project, PROJECT_UPLOADS_FOLDER)).mode & 0o777).toBe(0o700);
  });

  test("no project folder → no_project; a link in place of the folder → io_error", () => {
    const missing = "/no/such/workspace";
    expect(
      resolveUploadsRoot({ project: undefined, env: process.env, workspaceUploads: missing }),
    ).toEqual({
      ok: false,
      reason: "no_project",
    });
    const project = testTempDir("brigade-proj-");
    mkdirSync(join(project, "elsewhere"));
    symlinkSync(join(project, "elsewhere"), join(project, PROJECT_UPLOADS_FOLDER));
    expect(resolveUploadsRoot({ project, env: process.env, workspaceUploads: missing })).toEqual({
      ok: false,
      reason: "io_error",
    });
  });
});

describe("MessageFiles", () => {
  function pipelineWith(envelope: unknown): InboundPipeline {
    const p = new InboundPipeline({
      now: Date.now,
      hashBody: (b) => sha(Buffer.from(b)),
      seen: { has: () => false, add: () => {} },
      policy: "accept",
      teamName: "core",
      instruction: { level: "open", custom: "" },
      delivery: "poll",
    });
    p.offer(envelope);
    return p;
  }
  const envelope = (attachments: unknown) => ({
    message_id: "m-1",
    sender: { principal_ref: "p-1", session_id: "s-9", session_name: "api" },
    body: "see attached",
    created_at: "2026-10-02T09:15:42Z",
    attachments,
  });

  test("ready: the files land in the project's uploads folder and the frame lists them", async () => {
    const project = testTempDir("brigade-mf-");
    const events: string[] = [];
    const { adapter } = fakeAdapter(blobsOf(TEXT));
    const files = new MessageFiles({
      adapter,
      sessionId: "s-1",
      project,
      workspaceUploads: join(project, "no-workspace"),
      log: (_level, event, fields) => events.push(`${event} ${JSON.stringify(fields)}`),
    });
    const p = pipelineWith(envelope(message([{ bytes: TEXT, name: "a.txt" }]).attachments));
    expect(await files.settleHead(p)).toBe("ready");
    expect(await files.settleHead(p)).toBe("none");
    const item = p.next();
    if (item?.kind !== "message") throw new Error("no message");
    const dir = join(project, PROJECT_UPLOADS_FOLDER);
    expect(files.uploadsDir).toBe(dir);
    expect(item.frame).toContain(`[llmsafespaces:attachment path="${dir}/`);
    expect(events).toEqual(['attachments_received {"message_id":"m-1","files":"1"}']);
  });

  test("failed: the message leaves the head unacked, and one line says why (no name, no path)", async () => {
    const project = testTempDir("brigade-mf-");
    const events: string[] = [];
    const { adapter } = fakeAdapter(new Map());
    const files = new MessageFiles({
      adapter,
      sessionId: "s-1",
      project,
      workspaceUploads: join(project, "no-workspace"),
      log: (_level, event, fields) => events.push(`${event} ${JSON.stringify(fields)}`),
    });
    const p = pipelineWith(
      envelope(message([{ bytes: TEXT, name: "secret-name.txt" }]).attachments),
    );
    expect(await files.settleHead(p)).toBe("failed");
    expect(p.peek()).toBeUndefined();
    expect(events).toEqual([
      'attachments_failed {"message_id":"m-1","reason":"not_found","index":"0"}',
    ]);
  });

  test("sweep removes old files from the project's uploads folder and creates nothing", () => {
    const project = testTempDir("brigade-mf-");
    const files = new MessageFiles({
      adapter: {},
      sessionId: "s-1",
      project,
      workspaceUploads: join(project, "no-workspace"),
    });
    expect(files.sweep(Date.now(), 60)).toBe(0);
    expect(existsSync(join(project, PROJECT_UPLOADS_FOLDER))).toBe(false);
    mkdirSync(join(project, PROJECT_UPLOADS_FOLDER));
    const old = join(project, PROJECT_UPLOADS_FOLDER, `${receivedFileId("s", "m", 0, "x")}-a.txt`);
    writeFileSync(old, "x");
    utimesSync(old, 1, 1);
    expect(files.sweep(Date.now(), 60)).toBe(1);
  });
});
