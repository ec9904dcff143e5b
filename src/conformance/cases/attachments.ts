import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import { ack, describe, newSession, receive, send, sendOk } from "../operations.ts";
import { adminTeam } from "./fresh-team.ts";
import { detail, expectInvalid, freshMember } from "./helpers.ts";

/**
 * The attachment cases **[ours]** (capability `message.attachments`, docs/20-protocol.md
 * "Attachments"): `message upload` and `message download` move a file's bytes through the
 * adapter; a send names uploaded blobs. Files are written under `<run>/files/`, with
 * deterministic contents (no random bytes: the end-of-run scan reads every file).
 */
const CAPS = ["message.attachments"] as const;

/** A file of `size` bytes under the run directory, its bytes a pattern of `seed`. */
function makeFile(ctx: SuiteContext, seed: string, size: number): { path: string; sha256: string } {
  const folder = join(ctx.runDir, "files");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, ctx.unique(`up-${seed}`));
  const unit = Buffer.from(`${seed}:${"0123456789abcdef".repeat(4)}\n`);
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += unit.length) unit.copy(bytes, at);
  writeFileSync(path, bytes);
  return { path, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** A path under the run directory where nothing is yet (a download target). */
function target(ctx: SuiteContext): string {
  const folder = join(ctx.runDir, "files");
  mkdirSync(folder, { recursive: true });
  return join(folder, ctx.unique("down"));
}

/** A digest no upload of this run declares (64 lowercase hex digits). */
function strangerDigest(ctx: SuiteContext): string {
  return createHash("sha256").update(ctx.unique("nothing")).digest("hex");
}

/** `message upload` as `p` of the file at `path`, declared as `sha256` and `size`. */
function upload(
  ctx: SuiteContext,
  p: Principal,
  path: string,
  sha256: string,
  size: number,
): Promise<Call> {
  return ctx.call(p, ["message", "upload"], { stdin: { path, sha256, size } });
}

/** `message upload` of a file that must succeed; returns its attachment entry named `name`. */
async function uploadOk(
  ctx: SuiteContext,
  p: Principal,
  file: { path: string; sha256: string },
  name: string,
): Promise<{ sha256: string; size: number; name: string }> {
  const size = readFileSync(file.path).length;
  const result = ctx.ok(await upload(ctx, p, file.path, file.sha256, size), `${p.name} upload`);
  ctx.check(
    result.sha256 === file.sha256 && result.size === size,
    "message upload: the result does not name the blob as declared",
  );
  return { sha256: file.sha256, size, name };
}

/** `message download` as `p` of `sha256` into `path` (a new file unless `offset`). */
function download(
  ctx: SuiteContext,
  p: Principal,
  sha256: string,
  path: string,
  offset?: number,
): Promise<Call> {
  return ctx.call(p, ["message", "download"], {
    stdin: offset === undefined ? { sha256, path } : { sha256, path, offset },
  });
}

/** Records a failure unless the file at `path` holds exactly the bytes of `source`. */
function expectSameFile(ctx: SuiteContext, path: string, source: string, what: string): void {
  const same = existsSync(path) && readFileSync(path).equals(readFileSync(source));
  ctx.check(same, `${what}: the downloaded file differs from the uploaded one`);
}

/** A download of `sha256` as `p` must be 6, byte-identical to that of a digest nobody uploaded. */
async function expectUnreadable(
  ctx: SuiteContext,
  p: Principal,
  sha256: string,
  what: string,
): Promise<void> {
  const call = await download(ctx, p, sha256, target(ctx));
  const nowhere = await download(ctx, p, strangerDigest(ctx), target(ctx));
  ctx.expectError(call, "not_found", 6, what);
  ctx.expectIdentical(call, nowhere, `${what} vs a blob that does not exist`);
}

const C60 = defineCase(
  "C-60",
  "[ours] describe advertises the attachment limits; a file uploaded, sent and downloaded arrives byte for byte, with the attachments listed in the envelope; the same bytes again are accepted",
  CAPS,
  async (ctx, fx) => {
    const limits = (await describe(ctx, fx.a)).attachments as Record<string, unknown> | undefined;
    const count = limits?.max_attachments_per_message;
    const perFile = limits?.max_attachment_bytes;
    const perMessage = limits?.max_message_attachment_bytes;
    ctx.check(
      typeof count === "number" &&
        count >= 1 &&
        typeof perFile === "number" &&
        typeof perMessage === "number" &&
        perFile >= 1 &&
        perMessage >= perFile,
      "describe: attachments does not carry three positive limits (per message ≥ per file)",
    );
    const a = fx.a;
    const b = fx.b;
    const from = await newSession(ctx, a, ctx.unique("c60-a"));
    const to = await newSession(ctx, b, ctx.unique("c60-b"));
    const log = makeFile(ctx, "c60-log", 600_000);
    const patch = makeFile(ctx, "c60-patch", 1_000);
    const first = await uploadOk(ctx, a, log, "build.log");
    const second = await uploadOk(ctx, a, patch, "fix.patch");
    await uploadOk(ctx, a, log, "build.log");

    const mine = target(ctx);
    ctx.ok(await download(ctx, a, log.sha256, mine), "download by the uploader");
    expectSameFile(ctx, mine, log.path, "download by the uploader");

    await sendOk(ctx, a, from, to, "c60 see attached", { attachments: [first, second] });
    const [message] = await receive(ctx, b, to);
    ctx.check(
      JSON.stringify(message?.attachments) === JSON.stringify([first, second]),
      "message receive: attachments are not the ones sent, in order",
    );
    const theirs = target(ctx);
    ctx.ok(await download(ctx, b, log.sha256, theirs), "download by the recipient");
    expectSameFile(ctx, theirs, log.path, "download by the recipient");
  },
);

const C61 = defineCase(
  "C-61",
  "[ours] refusals before anything is stored: a malformed digest, a file over the per-file limit, too many files, too many bytes together, a name with a slash or a digest named twice → 3 naming the member; nothing reaches the recipient",
  CAPS,
  async (ctx, fx) => {
    const limits = ((await describe(ctx, fx.a)).attachments ?? {}) as Record<string, number>;
    const perFile = limits.max_attachment_bytes ?? 26_214_400;
    const perMessage = limits.max_message_attachment_bytes ?? 104_857_600;
    const count = limits.max_attachments_per_message ?? 10;
    const a = fx.a;
    const b = fx.b;
    const from = await newSession(ctx, a, ctx.unique("c61-a"));
    const to = await newSession(ctx, b, ctx.unique("c61-b"));
    const file = makeFile(ctx, "c61", 100);
    const blob = await uploadOk(ctx, a, file, "ok.txt");

    expectInvalid(
      ctx,
      await upload(ctx, a, file.path, "E3B0C442", 100),
      "sha256",
      "an upload with a malformed digest",
    );
    const big = await upload(ctx, a, file.path, file.sha256, perFile + 1);
    expectInvalid(ctx, big, "size", "an upload declared over the per-file limit");
    ctx.check(
      detail(big, "reason") === "too_long",
      "over the per-file limit: reason is not too_long",
    );

    const entry = (i: number) => ({
      sha256: createHash("sha256").update(`c61-${i}`).digest("hex"),
      size: 1,
      name: `f${i}.txt`,
    });
    const tooMany = Array.from({ length: count + 1 }, (_, i) => entry(i));
    expectInvalid(
      ctx,
      await send(ctx, a, from, to, "c61 many", { attachments: tooMany }),
      "attachments",
      `a send naming ${count + 1} files`,
    );
    const files = Math.min(count, Math.floor(perMessage / perFile) + 1);
    const heavy = Array.from({ length: files }, (_, i) => ({ ...entry(i), size: perFile }));
    if (files * perFile > perMessage) {
      expectInvalid(
        ctx,
        await send(ctx, a, from, to, "c61 heavy", { attachments: heavy }),
        "attachments",
        "a send naming more bytes than the per-message limit",
      );
    } else {
      ctx.note("the per-message limit cannot be passed within the file count: not asserted");
    }
    expectInvalid(
      ctx,
      await send(ctx, a, from, to, "c61 slash", { attachments: [{ ...blob, name: "a/b" }] }),
      "attachments.0.name",
      "an attachment name with a slash",
    );
    expectInvalid(
      ctx,
      await send(ctx, a, from, to, "c61 twice", { attachments: [blob, { ...blob, name: "x" }] }),
      "attachments.1.sha256",
      "a digest named twice",
    );
    ctx.check((await receive(ctx, b, to)).length === 0, "a refused send reached the recipient");
  },
);

const C62 = defineCase(
  "C-62",
  "[ours] an upload whose bytes do not match its declaration (another digest, ending early, running long) → 3 digest_mismatch / size_mismatch, and nothing is kept: the digest cannot be downloaded or sent (6, identical to a blob that does not exist)",
  CAPS,
  async (ctx, fx) => {
    const a = fx.a;
    const b = fx.b;
    const from = await newSession(ctx, a, ctx.unique("c62-a"));
    const to = await newSession(ctx, b, ctx.unique("c62-b"));
    const file = makeFile(ctx, "c62", 300_000);
    const other = makeFile(ctx, "c62-other", 300_000);
    const cases: [string, Call, string][] = [
      ["digest_mismatch", await upload(ctx, a, file.path, other.sha256, 300_000), "sha256"],
      ["size_mismatch", await upload(ctx, a, file.path, file.sha256, 400_000), "size"],
      ["size_mismatch", await upload(ctx, a, file.path, file.sha256, 200_000), "size"],
    ];
    for (const [reason, call, field] of cases) {
      expectInvalid(ctx, call, field, `an upload with a ${reason}`);
      ctx.check(detail(call, "reason") === reason, `an upload with a ${reason}: wrong reason`);
    }
    await expectUnreadable(ctx, a, other.sha256, "download of a digest whose upload was refused");
    await expectUnreadable(ctx, a, file.sha256, "download of a blob whose uploads were refused");
    const named = await send(ctx, a, from, to, "c62", {
      attachments: [{ sha256: file.sha256, size: 300_000, name: "f.bin" }],
    });
    const nowhere = await send(ctx, a, from, to, "c62", {
      attachments: [{ sha256: strangerDigest(ctx), size: 300_000, name: "f.bin" }],
    });
    ctx.expectError(named, "not_found", 6, "a send naming a refused upload");
    ctx.expectIdentical(named, nowhere, "a send naming a refused upload vs a blob nobody uploaded");
  },
);

const C63 = defineCase(
  "C-63",
  "[ours] a blob is read only by its uploader and the principals of the sessions a message naming it is addressed to: a teammate before the send, a third teammate after it and another team's member get 6, byte-identical to a blob that does not exist; nobody names a blob they did not upload",
  CAPS,
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c63-a");
    const b = await freshMember(ctx, fx, "c63-b");
    const d = await freshMember(ctx, fx, "c63-d");
    const from = await newSession(ctx, a, ctx.unique("c63-a"));
    const to = await newSession(ctx, b, ctx.unique("c63-b"));
    const back = await newSession(ctx, b, ctx.unique("c63-b2"));
    const file = makeFile(ctx, "c63", 2_000);
    const blob = await uploadOk(ctx, a, file, "secret.txt");

    await expectUnreadable(
      ctx,
      b,
      blob.sha256,
      "a teammate's download before any message names it",
    );
    await expectUnreadable(ctx, fx.c, blob.sha256, "another team's download");
    const borrowed = await send(ctx, b, back, from, "c63 borrowed", { attachments: [blob] });
    const nowhere = await send(ctx, b, back, from, "c63 borrowed", {
      attachments: [{ ...blob, sha256: strangerDigest(ctx) }],
    });
    ctx.expectError(borrowed, "not_found", 6, "a send naming a blob the sender never uploaded");
    ctx.expectIdentical(borrowed, nowhere, "a borrowed blob vs one that does not exist");

    await sendOk(ctx, a, from, to, "c63 for b", { attachments: [blob] });
    const got = target(ctx);
    ctx.ok(await download(ctx, b, blob.sha256, got), "the recipient's download");
    expectSameFile(ctx, got, file.path, "the recipient's download");
    await expectUnreadable(ctx, d, blob.sha256, "a third teammate's download after the send");
    await expectUnreadable(ctx, fx.c, blob.sha256, "another team's download after the send");
  },
);

const C64 = defineCase(
  "C-64",
  "[ours] a download resumes at an offset into a file holding the blob's first bytes and completes it; an offset past the end → 3 naming offset",
  CAPS,
  async (ctx, fx) => {
    const a = fx.a;
    const file = makeFile(ctx, "c64", 700_000);
    const blob = await uploadOk(ctx, a, file, "big.bin");
    for (const offset of [1, 262_144, 500_001, 700_000]) {
      const partial = target(ctx);
      writeFileSync(partial, readFileSync(file.path));
      truncateSync(partial, offset);
      const resumed = ctx.ok(
        await download(ctx, a, blob.sha256, partial, offset),
        `a download resumed at ${offset}`,
      );
      ctx.check(resumed.offset === offset, `resumed at ${offset}: the result names another offset`);
      expectSameFile(ctx, partial, file.path, `a download resumed at ${offset}`);
    }
    const past = target(ctx);
    writeFileSync(past, readFileSync(file.path));
    expectInvalid(
      ctx,
      await download(ctx, a, blob.sha256, past, 700_001),
      "offset",
      "a download past the end",
    );
  },
);

const C65 = defineCase(
  "C-65",
  "[ours] the team's storage quota: new bytes past it → 8 team_storage_full with limit and unit bytes; bytes the team already holds are accepted again; another team is not affected",
  [...CAPS, "team.create"],
  async (ctx, fx) => {
    const { creator } = await adminTeam(ctx, "C65", 0);
    const MIB = 1024 * 1024;
    const stored: { path: string; sha256: string }[] = [];
    let refused: Call | undefined;
    for (let i = 0; i < 16 && refused === undefined; i++) {
      const file = makeFile(ctx, `c65-${i}`, MIB);
      const call = await upload(ctx, creator, file.path, file.sha256, MIB);
      if (call.envelope?.ok === true) stored.push(file);
      else refused = call;
    }
    if (refused === undefined) {
      ctx.note("the team quota is above 16 MiB: its refusal is not exercised");
      return;
    }
    if (ctx.expectError(refused, "rate_limited", 8, "an upload past the team quota")) {
      ctx.check(
        detail(refused, "reason") === "team_storage_full",
        "quota: reason is not team_storage_full",
      );
      ctx.check(detail(refused, "unit") === "bytes", "quota: details.unit is not bytes");
      ctx.check(/^[1-9][0-9]*$/.test(detail(refused, "limit") ?? ""), "quota: no details.limit");
    }
    const again = stored[0];
    if (again !== undefined) {
      ctx.ok(await upload(ctx, creator, again.path, again.sha256, MIB), "the same bytes again");
    }
    const elsewhere = makeFile(ctx, "c65-elsewhere", MIB);
    ctx.ok(
      await upload(ctx, fx.a, elsewhere.path, elsewhere.sha256, MIB),
      "an upload by another team",
    );
  },
);

const C66 = defineCase(
  "C-66",
  "[ours] retention: a blob stays readable while a message naming it is unacknowledged and after its ack (the retention window), for its recipient and its uploader",
  CAPS,
  async (ctx, fx) => {
    const a = fx.a;
    const b = fx.b;
    const from = await newSession(ctx, a, ctx.unique("c66-a"));
    const to = await newSession(ctx, b, ctx.unique("c66-b"));
    const file = makeFile(ctx, "c66", 5_000);
    const blob = await uploadOk(ctx, a, file, "kept.txt");
    const sent = await sendOk(ctx, a, from, to, "c66", { attachments: [blob] });
    const before = target(ctx);
    ctx.ok(await download(ctx, b, blob.sha256, before), "a download while unacknowledged");
    await ack(ctx, b, to, [sent.message_id as string]);
    for (const [who, p] of [
      ["recipient", b],
      ["uploader", a],
    ] as const) {
      const after = target(ctx);
      ctx.ok(await download(ctx, p, blob.sha256, after), `the ${who}'s download after the ack`);
      expectSameFile(ctx, after, file.path, `the ${who}'s download after the ack`);
    }
    ctx.note("removal once the retention window has passed is not observable here: not asserted");
  },
);

const C67 = defineCase(
  "C-67",
  "[ours] message sent and message state name each message's files (sha256, size, name) in the sender's order; a message that names none has no attachments member",
  ["message.attachments", "message.state"],
  async (ctx, fx) => {
    const a = fx.a;
    const b = fx.b;
    const from = await newSession(ctx, a, ctx.unique("c67-a"));
    const to = await newSession(ctx, b, ctx.unique("c67-b"));
    const first = await uploadOk(ctx, a, makeFile(ctx, "c67-1", 3_000), "trace.bin");
    const second = await uploadOk(ctx, a, makeFile(ctx, "c67-2", 10), "notes.md");
    const withFiles = (
      await sendOk(ctx, a, from, to, "c67 files", {
        attachments: [second, first],
      })
    ).message_id as string;
    const plain = (await sendOk(ctx, a, from, to, "c67 plain")).message_id as string;
    const expected = JSON.stringify([second, first]);
    const sent = ctx.ok(
      await ctx.call(a, ["message", "sent", "--session", from, "--limit", "2"]),
      "message sent",
    );
    const state = ctx.ok(
      await ctx.call(a, ["message", "state", "--session", from], {
        stdin: { message_ids: [withFiles, plain] },
      }),
      "message state",
    );
    for (const [what, result] of [
      ["message sent", sent],
      ["message state", state],
    ] as const) {
      const records = Array.isArray(result.messages)
        ? (result.messages as { message_id?: unknown; attachments?: unknown }[])
        : [];
      const named = records.find((m) => m.message_id === withFiles);
      const bare = records.find((m) => m.message_id === plain);
      ctx.check(
        JSON.stringify(named?.attachments) === expected,
        `${what}: the files of a message are not its attachments in the sender's order`,
      );
      ctx.check(
        bare !== undefined && !Object.hasOwn(bare, "attachments"),
        `${what}: a message without files has an attachments member`,
      );
    }
  },
);

/** The attachment cases C-60 to C-67. */
export const ATTACHMENT_CASES: readonly ConformanceCase[] = [
  C60,
  C61,
  C62,
  C63,
  C64,
  C65,
  C66,
  C67,
];
