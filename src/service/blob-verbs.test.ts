import { createHash, randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/sqlite-store.ts";
import { BrigadeService } from "./brigade-service.ts";
import {
  type AttachmentSettings,
  DEFAULT_ATTACHMENT_SETTINGS,
  STALE_BLOB_CONTENT_MS,
  UNNAMED_BLOB_RETENTION_MS,
} from "./service-config.ts";
import { randomIdGenerator } from "./service-deps.ts";
import type { MessageRow } from "./store.ts";
import { contractMessage } from "./store-contract-rows.ts";
import { toEnvelope } from "./wire-records.ts";

const START = Date.parse("2026-10-02T09:00:00.000Z");
const DAY = 86_400_000;

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function* pieces(bytes: Uint8Array, size = 100_000): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** A and B in T1 (sessions sa, sb); C in T2; a clock the test moves. */
async function world(attachments: Partial<AttachmentSettings> = {}) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { t: START };
  const service = new BrigadeService(
    store,
    { now: () => clock.t, newId: randomIdGenerator(randomBytes), randomBytes },
    { attachments: { ...DEFAULT_ATTACHMENT_SETTINGS, ...attachments } },
  );
  const [a, b, c] = await Promise.all(
    [0, 1, 2].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if (a === undefined || b === undefined || c === undefined) throw new Error("principals");
  const t1 = await service.createTeam(a, { team_name: "core" });
  await service.joinTeam(b, { join_secret: t1.join_secret });
  const T1 = t1.team_ref;
  const T2 = (await service.createTeam(c, { team_name: "other" })).team_ref;
  const sa = (await service.registerSession(a, T1, sessionRegistration("a"))).session_id;
  const sb = (await service.registerSession(b, T1, sessionRegistration("b"))).session_id;
  const upload = (who: string, bytes: Uint8Array, team = T1) =>
    service.uploadBlob(who, team, { sha256: sha(bytes), size: bytes.length }, pieces(bytes));
  const read = async (who: string, digest: string, offset = 0, length?: number) => {
    const open = await service.openBlob(who, T1, digest, offset, length);
    const parts: Buffer[] = [];
    for await (const part of open.body) parts.push(Buffer.from(part));
    return Buffer.concat(parts);
  };
  const sendWith = (files: { sha256: string; size: number; name: string }[], key?: string) =>
    service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "files",
      attachments: files,
      ...(key === undefined ? {} : { idempotency_key: key }),
    });
  return { store, service, clock, a, b, c, T1, T2, sa, sb, upload, read, sendWith };
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    const e = error as { code?: string; details?: Record<string, string> };
    return [e.code, e.details?.reason, e.details?.field].filter(Boolean).join(" ");
  }
}

describe("blobs in the service", () => {
  test("the refusals come in order, before any byte is read", async () => {
    const w = await world({ maxFileBytes: 1000, teamQuotaBytes: 2500 });
    let read = false;
    async function* untouched(): AsyncGenerator<Uint8Array> {
      read = true;
      yield new Uint8Array(1);
    }
    const attempt = (who: string, team: string, sha256: unknown, size: unknown) =>
      code(w.service.uploadBlob(who, team, { sha256, size }, untouched()));
    expect(await attempt(w.a, w.T1, "nope", 10)).toBe("invalid_input invalid_value sha256");
    expect(await attempt(w.a, w.T1, sha(new Uint8Array(1)), 1001)).toBe(
      "invalid_input too_long size",
    );
    expect(await attempt(w.c, w.T1, sha(new Uint8Array(1)), 10)).toBe("unauthorized");
    await w.upload(w.a, randomBytes(1000));
    await w.upload(w.a, randomBytes(1000));
    expect(await attempt(w.a, w.T1, sha(new Uint8Array(1)), 600)).toBe(
      "rate_limited team_storage_full",
    );
    expect(read).toBe(false);
  });

  test("the same bytes again cost no space, make another uploader, and read only whole", async () => {
    const w = await world();
    const bytes = randomBytes(700_000);
    await w.upload(w.a, bytes);
    const used = await w.store.transact((tx) => tx.teamBlobBytes(w.T1));
    await w.upload(w.b, bytes);
    expect(await w.store.transact((tx) => tx.teamBlobBytes(w.T1))).toBe(used);
    expect((await w.read(w.b, sha(bytes))).equals(bytes)).toBe(true);
    // Declaring bytes one does not send proves nothing: the uploader's claim is checked whole.
    const claimed = w.service.uploadBlob(
      w.c,
      w.T2,
      { sha256: sha(bytes), size: bytes.length },
      pieces(bytes.subarray(0, 1000)),
    );
    expect(await code(claimed)).toBe("invalid_input size_mismatch size");
    expect(await w.store.transact((tx) => tx.teamBlobBytes(w.T2))).toBe(0);
  });

  test("ranges read any slice, across chunk boundaries", async () => {
    const w = await world();
    const bytes = randomBytes(600_000);
    await w.upload(w.a, bytes);
    for (const [offset, length] of [
      [0, 1],
      [262_143, 2],
      [262_144, 262_144],
      [599_999, undefined],
      [600_000, undefined],
      [100, 10_000_000],
    ] as const) {
      const got = await w.read(w.a, sha(bytes), offset, length);
      const want = bytes.subarray(offset, length === undefined ? undefined : offset + length);
      expect(got.equals(want), `${offset}+${length}`).toBe(true);
    }
    expect(await code(w.read(w.a, sha(bytes), 600_001))).toBe("invalid_input out_of_range offset");
  });

  test("a send's attachments are checked against this server's limits, and replays see them", async () => {
    const w = await world({ maxFilesPerMessage: 2, maxMessageBytes: 1500 });
    const files = await Promise.all(
      [randomBytes(800), randomBytes(800), randomBytes(10)].map(async (bytes, i) => {
        await w.upload(w.a, bytes);
        return { sha256: sha(bytes), size: bytes.length, name: `f${i}.bin` };
      }),
    );
    const [f0, f1, f2] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    expect(await code(w.sendWith([f0, f1, f2]))).toBe("invalid_input out_of_range attachments");
    expect(await code(w.sendWith([f0, f1]))).toBe("invalid_input too_long attachments");
    const sent = await w.sendWith([f0, f2], "k");
    expect(sent.duplicate).toBe(false);
    expect((await w.sendWith([f0, f2], "k")).message_id).toBe(sent.message_id);
    expect(await code(w.sendWith([f2, f0], "k"))).toBe("conflict idempotency_key_reused");
    const [envelope] = (await w.service.receiveMessages(w.b, w.T1, w.sb)).messages;
    expect(envelope?.attachments).toEqual([f0, f2]);
  });

  test("retention: a named blob lives while its message does; an unnamed one a day after its upload", async () => {
    const w = await world();
    const named = randomBytes(300_000);
    const loose = randomBytes(1000);
    await w.upload(w.a, named);
    await w.upload(w.a, loose);
    const sent = await w.sendWith([{ sha256: sha(named), size: named.length, name: "n.bin" }]);
    // An upload that died with its process left a content no blob names.
    await w.store.transact((tx) =>
      tx.insertBlobContent({
        content_id: "c-0000000000000000dead",
        team_ref: w.T1,
        sha256: sha(randomBytes(4)),
        size: 4,
        created_at: START,
      }),
    );

    w.clock.t = START + STALE_BLOB_CONTENT_MS + 1;
    expect(await w.service.collectGarbage()).toMatchObject({ blobs: 0, blob_contents: 1 });
    w.clock.t = START + UNNAMED_BLOB_RETENTION_MS + 1;
    expect(await w.service.collectGarbage()).toMatchObject({ blobs: 1, blob_contents: 0 });
    expect(await code(w.read(w.a, sha(loose)))).toBe("not_found");
    expect((await w.read(w.b, sha(named))).equals(named)).toBe(true);

    // Acknowledged, the message (and with it the blob) stays the acked retention window.
    await w.service.ackMessages(w.b, w.T1, w.sb, { message_ids: [sent.message_id] });
    const ackedAt = w.clock.t;
    w.clock.t = ackedAt + DAY - 1;
    expect(await w.service.collectGarbage()).toMatchObject({ messages: 0, blobs: 0 });
    expect((await w.read(w.b, sha(named))).equals(named)).toBe(true);
    w.clock.t = ackedAt + DAY + 1;
    expect(await w.service.collectGarbage()).toMatchObject({ messages: 1, blobs: 1 });
    expect(await code(w.read(w.a, sha(named)))).toBe("not_found");
    expect(await w.store.transact((tx) => tx.teamBlobBytes(w.T1))).toBe(0);
  });
});

describe("toEnvelope", () => {
  test("a row read straight from a data file (the column's text, or null) gives the same envelope", () => {
    const attachments = [{ sha256: sha(new Uint8Array([1])), size: 1, name: "a.bin" }];
    const row = contractMessage("m-1", { created_at: START });
    const raw = (column: string | null) =>
      ({ ...row, attachments: column }) as unknown as MessageRow;
    expect(toEnvelope(raw(null))).toEqual(toEnvelope(row));
    expect(toEnvelope(raw(null))).not.toHaveProperty("attachments");
    expect(toEnvelope(raw(JSON.stringify(attachments))).attachments).toEqual(attachments);
    expect(toEnvelope({ ...row, attachments }).attachments).toEqual(attachments);
  });
});
