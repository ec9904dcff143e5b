import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import type { MessageAttachment } from "../protocol/index.ts";
import { SEND_LIMITS, sendInTx } from "./send-in-tx.ts";
import type { MessageRow, SendCommand, SendOutcome, Store } from "./store.ts";
import { contractMessage } from "./store-contract-rows.ts";
import { sendThrough } from "./store-send-contract.ts";

const digest = (text: string): string => createHash("sha256").update(text).digest("hex");
const HOUR = 3_600_000;

/** Stores a verified blob `text` of team t-1 under content `c-<text>`, uploaded by `uploader`. */
async function storeBlob(store: Store, text: string, uploader = "p-a", at = Date.now()) {
  const sha256 = digest(text);
  await store.transact(async (tx) => {
    await tx.insertBlobContent({
      content_id: `c-${text}`,
      team_ref: "t-1",
      sha256,
      size: text.length,
      created_at: at,
    });
    await tx.putBlobChunk(`c-${text}`, 0, Buffer.from(text));
    await tx.insertBlob({
      team_ref: "t-1",
      sha256,
      size: text.length,
      content_id: `c-${text}`,
      created_at: at,
    });
    await tx.putBlobUploader("t-1", sha256, uploader, at);
  });
  return { sha256, size: text.length, name: `${text}.txt` } satisfies MessageAttachment;
}

const insert = (store: Store, row: MessageRow) => store.transact((tx) => tx.insertMessage(row));

/** A send of `attachments` from s-a (p-a) to s-b, decided over the unit's methods (`sendInTx`). */
function sendNaming(
  store: Store,
  attachments: readonly MessageAttachment[],
  overrides: Partial<SendCommand> = {},
): Promise<SendOutcome> {
  const command: SendCommand = {
    principalRef: "p-a",
    teamRef: "t-1",
    senderSessionId: "s-a",
    recipientSessionId: "s-b",
    body: "see attached",
    summary: null,
    replyTo: null,
    idempotencyKey: null,
    attachments,
    messageId: `m-att-${Math.random().toString(16).slice(2)}`,
    limits: SEND_LIMITS,
    now: Date.now(),
    ...overrides,
  };
  return store.transact((tx) => sendInTx(tx, command));
}

/**
 * The blob cases of the store contract (capability `message.attachments`), registered inside
 * `registerStoreContract`'s describe block on its seeded store (p-a and p-b active in t-1, p-c in
 * no team; sessions s-a of p-a and s-b of p-b).
 */
export function registerBlobContract(current: () => Store): void {
  test("blob contents: chunks round-trip by sequence, count against the team, and go with their content", async () => {
    const store = current();
    await store.transact(async (tx) => {
      await tx.insertBlobContent({
        content_id: "c-1",
        team_ref: "t-1",
        sha256: digest("x"),
        size: 7,
        created_at: 1,
      });
      await tx.insertBlobContent({
        content_id: "c-2",
        team_ref: "t-2",
        sha256: digest("y"),
        size: 100,
        created_at: 1,
      });
      await tx.putBlobChunk("c-1", 0, Buffer.from("abc"));
      await tx.putBlobChunk("c-1", 1, new Uint8Array([0, 1, 255, 0]));
    });
    const chunk = (seq: number) => store.transact((tx) => tx.blobChunk("c-1", seq));
    expect(Buffer.from((await chunk(0)) ?? []).toString()).toBe("abc");
    expect([...((await chunk(1)) ?? [])]).toEqual([0, 1, 255, 0]);
    expect(await chunk(2)).toBeNull();
    expect(await store.transact((tx) => tx.teamBlobBytes("t-1"))).toBe(7);
    expect(await store.transact((tx) => tx.teamBlobBytes("t-3"))).toBe(0);
    await store.transact((tx) => tx.deleteBlobContent("c-1"));
    expect(await chunk(0)).toBeNull();
    expect(await store.transact((tx) => tx.teamBlobBytes("t-1"))).toBe(0);
    expect(await store.transact((tx) => tx.teamBlobBytes("t-2"))).toBe(100);
  });

  test("blobs: one per team and digest; uploaders are renewed, never moved back", async () => {
    const store = current();
    const blob = await storeBlob(store, "alpha", "p-a", 5_000);
    expect(await store.transact((tx) => tx.getBlob("t-1", blob.sha256))).toEqual({
      team_ref: "t-1",
      sha256: blob.sha256,
      size: 5,
      content_id: "c-alpha",
      created_at: 5_000,
    });
    expect(await store.transact((tx) => tx.getBlob("t-2", blob.sha256))).toBeNull();
    await store.transact(async (tx) => {
      await tx.putBlobUploader("t-1", blob.sha256, "p-b", 7_000);
      await tx.putBlobUploader("t-1", blob.sha256, "p-a", 9_000);
      await tx.putBlobUploader("t-1", blob.sha256, "p-a", 6_000);
    });
    expect(await store.transact((tx) => tx.blobUploaders("t-1", blob.sha256))).toEqual([
      { principal_ref: "p-a", uploaded_at: 9_000 },
      { principal_ref: "p-b", uploaded_at: 7_000 },
    ]);
    await expect(
      store.transact((tx) =>
        tx.insertBlob({
          team_ref: "t-1",
          sha256: blob.sha256,
          size: 5,
          content_id: "c-alpha",
          created_at: 1,
        }),
      ),
    ).rejects.toThrow();
  });

  test("a message keeps its attachments on every read path, and names its blobs to its recipient only", async () => {
    const store = current();
    const one = await storeBlob(store, "one");
    const two = await storeBlob(store, "two");
    await insert(
      store,
      contractMessage("m-att", { attachments: [two, one], idempotency_key: "k-att" }),
    );
    await insert(store, contractMessage("m-plain"));
    const read = await store.transact((tx) => tx.getMessage("m-att"));
    expect(read?.attachments).toEqual([two, one]);
    const plain = await store.transact((tx) => tx.getMessage("m-plain"));
    expect(plain).not.toHaveProperty("attachments");
    expect(
      (await store.transact((tx) => tx.messageByIdempotencyKey("s-a", "k-att")))?.attachments,
    ).toEqual([two, one]);
    const inbox = await store.transact((tx) => tx.listUnacked("s-b", 10));
    expect(inbox.map((m) => m.attachments)).toEqual([[two, one], undefined]);
    if (store.fetchMessages !== undefined) {
      const fetched = await store.fetchMessages({
        principalRef: "p-b",
        teamRef: "t-1",
        sessionId: "s-b",
        messageIds: ["m-att", "m-plain"],
      });
      expect(fetched.ok && fetched.messages.map((m) => m.attachments)).toEqual([
        [two, one],
        undefined,
      ]);
    }
    const named = (sha: string, principal: string) =>
      store.transact((tx) => tx.blobNamedFor("t-1", sha, principal));
    expect(await named(one.sha256, "p-b")).toBe(true);
    expect(await named(one.sha256, "p-a")).toBe(false);
    expect(await named(one.sha256, "p-c")).toBe(false);
    expect(await store.transact((tx) => tx.blobNamedFor("t-2", one.sha256, "p-b"))).toBe(false);
  });

  test("the sweep keeps a named blob and a fresh upload, and removes what nothing needs", async () => {
    const store = current();
    const now = Date.now();
    const named = await storeBlob(store, "named", "p-a", now - 3 * HOUR);
    const fresh = await storeBlob(store, "fresh", "p-a", now);
    const old = await storeBlob(store, "old", "p-a", now - 3 * HOUR);
    await insert(store, contractMessage("m-named", { attachments: [named] }));
    await store.transact(async (tx) => {
      await tx.insertBlobContent({
        content_id: "c-stale",
        team_ref: "t-1",
        sha256: digest("s"),
        size: 1,
        created_at: now - 3 * HOUR,
      });
      await tx.insertBlobContent({
        content_id: "c-busy",
        team_ref: "t-1",
        sha256: digest("b"),
        size: 1,
        created_at: now,
      });
    });
    const counts = await store.transact((tx) =>
      tx.collectBlobs({
        unnamedUploadedBefore: now - HOUR,
        staleContentBefore: now - HOUR,
        limit: 10,
      }),
    );
    expect(counts).toEqual({ blobs: 1, contents: 1 });
    const there = async (sha: string) =>
      (await store.transact((tx) => tx.getBlob("t-1", sha))) !== null;
    expect(await there(named.sha256)).toBe(true);
    expect(await there(fresh.sha256)).toBe(true);
    expect(await there(old.sha256)).toBe(false);
    expect(await store.transact((tx) => tx.blobChunk("c-old", 0))).toBeNull();
    expect(await store.transact((tx) => tx.blobUploaders("t-1", old.sha256))).toEqual([]);
    expect(await store.transact((tx) => tx.teamBlobBytes("t-1"))).toBe(5 + 5 + 1);
    // Once its message is gone, the named blob goes too.
    await store.transact((tx) =>
      tx.collectGarbage({
        ackedBefore: 0,
        unackedCreatedBefore: now,
        sessionOfflineBefore: 0,
        joinFailuresBefore: 0,
        invitationEndedBefore: 0,
        unusedTeamCreatedBefore: 0,
        unusedPrincipalCreatedBefore: 0,
        limit: 100,
      }),
    );
    const later = await store.transact((tx) =>
      tx.collectBlobs({ unnamedUploadedBefore: now - HOUR, staleContentBefore: 0, limit: 10 }),
    );
    expect(later).toEqual({ blobs: 1, contents: 0 });
    expect(await there(named.sha256)).toBe(false);
  });

  test("a send names only blobs of the team, of the size named, that its principal uploaded", async () => {
    const store = current();
    const mine = await storeBlob(store, "mine", "p-a");
    const theirs = await storeBlob(store, "theirs", "p-b");
    const refusals = [
      [{ ...mine, sha256: digest("nothing") }],
      [{ ...mine, size: mine.size + 1 }],
      [mine, theirs],
    ];
    for (const attachments of refusals) {
      expect(await sendNaming(store, attachments)).toEqual({ ok: false, refusal: "not_found" });
    }
    expect(await store.transact((tx) => tx.listUnacked("s-b", 10))).toEqual([]);
    const sent = await sendNaming(store, [mine], { idempotencyKey: "k-1", messageId: "m-1" });
    expect(sent.ok && sent.duplicate).toBe(false);
    const inbox = await store.transact((tx) => tx.listUnacked("s-b", 10));
    expect(inbox.map((m) => [m.message_id, m.attachments])).toEqual([["m-1", [mine]]]);
    expect(await store.transact((tx) => tx.blobNamedFor("t-1", mine.sha256, "p-b"))).toBe(true);
    // A replay with the same files is the same send; with other files, or none, another one.
    const again = await sendNaming(store, [mine], { idempotencyKey: "k-1", messageId: "m-2" });
    expect(again.ok && again.duplicate && again.message.message_id).toBe("m-1");
    expect(
      await sendNaming(store, [{ ...mine, name: "other.txt" }], { idempotencyKey: "k-1" }),
    ).toEqual({ ok: false, refusal: "idempotency_key_reused" });
    expect(await sendThrough(store, { body: "see attached", idempotencyKey: "k-1" })).toEqual({
      ok: false,
      refusal: "idempotency_key_reused",
    });
  });

  test("an adopted message keeps its attachments", async () => {
    const store = current();
    const blob = await storeBlob(store, "kept");
    await store.transact(async (tx) => {
      await tx.insertSession({
        ...((await tx.getSession("s-b")) ?? (await Promise.reject(new Error("no s-b")))),
        session_id: "s-b2",
      });
    });
    await insert(store, contractMessage("m-adopt", { attachments: [blob] }));
    const moved = await store.transact((tx) => tx.adoptMessages("s-b", "s-b2", Date.now(), 10));
    expect(moved.map((m) => m.attachments)).toEqual([[blob]]);
  });
}
