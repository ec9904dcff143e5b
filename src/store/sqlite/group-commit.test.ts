import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { BapError, notFoundError } from "../../protocol/index.ts";
import { BrigadeService } from "../../service/brigade-service.ts";
import { randomIdGenerator } from "../../service/service-deps.ts";
import type { MessageRow } from "../../service/store.ts";
import { openSqliteStore } from "./sqlite-store.ts";

const dir = mkdtempSync(join(tmpdir(), "brigade-group-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function row(id: string, recipient: string): MessageRow {
  return {
    message_id: id,
    team_ref: "t-1",
    sender_principal_ref: "p-a",
    sender_session_id: "s-a",
    sender_session_name: "a",
    sender_human_label: null,
    recipient_session_id: recipient,
    summary: null,
    body: "x",
    reply_to: null,
    hop_count: 0,
    created_at: 1,
    acked_at: null,
    idempotency_key: null,
  };
}

async function seededService(path: string) {
  const store = openSqliteStore(path);
  let t = Date.parse("2026-10-02T09:00:00Z");
  let n = 0;
  const random = (len: number) => {
    const out = new Uint8Array(len);
    n += 1;
    for (let i = 0; i < len; i += 1) out[i] = (n * 31 + i * 7) & 0xff;
    return out;
  };
  const service = new BrigadeService(store, {
    now: () => t,
    newId: randomIdGenerator((len) => random(len)),
    randomBytes: random,
  });
  return { store, service, tick: (ms: number) => (t += ms) };
}

describe("group commit", () => {
  test("many concurrent units share batches, all resolve and all persist; a failing unit rolls back alone", async () => {
    const path = join(dir, "group.db");
    const { store, service, tick } = await seededService(path);
    const a = (await service.createPrincipal()).principal_ref;
    const team = await service.createTeam(a, { team_name: "core" });
    const reg = {
      harness: "h",
      harness_version: "1",
      activity: "busy",
      inbound: "accept",
    } as const;
    const recipients: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      tick(3000);
      recipients.push(
        (await service.registerSession(a, team.team_ref, { ...reg, session_name: `r${i}` }))
          .session_id,
      );
    }
    // 200 raw units at once: every fifth throws after writing, and must leave nothing behind.
    const units = Array.from({ length: 200 }, (_, i) =>
      store.transact(async (tx) => {
        await tx.insertMessage(row(`m-${i}`, recipients[i % 40] as string));
        if (i % 5 === 4) throw new BapError(notFoundError());
        return i;
      }),
    );
    const commitsBefore = store.commits;
    const settled = await Promise.allSettled(units);
    // 200 units, at most 256 per batch: one physical commit.
    expect(store.commits - commitsBefore).toBe(1);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(160);
    expect(
      settled
        .filter((s) => s.status === "rejected")
        .every((s) => (s as PromiseRejectedResult).reason instanceof BapError),
    ).toBe(true);
    await store.close();

    const reopened = openSqliteStore(path);
    const present = await reopened.transact(async (tx) => {
      const out: boolean[] = [];
      for (let i = 0; i < 200; i += 1) out.push((await tx.getMessage(`m-${i}`)) !== null);
      return out;
    });
    expect(present.every((p, i) => p === (i % 5 !== 4))).toBe(true);
    await reopened.close();
  });

  test("concurrent service sends through one store all resolve and are all received", async () => {
    const { store, service } = await seededService(join(dir, "sends.db"));
    const a = (await service.createPrincipal()).principal_ref;
    const team = await service.createTeam(a, { team_name: "core" });
    const reg = {
      harness: "h",
      harness_version: "1",
      activity: "busy",
      inbound: "accept",
    } as const;
    const pairs: [string, string][] = [];
    for (let i = 0; i < 3; i += 1) {
      const s = (await service.registerSession(a, team.team_ref, { ...reg, session_name: `s${i}` }))
        .session_id;
      const r = (await service.registerSession(a, team.team_ref, { ...reg, session_name: `r${i}` }))
        .session_id;
      pairs.push([s, r]);
    }
    const sends = [];
    for (const [s, r] of pairs) {
      for (let k = 0; k < 15; k += 1) {
        sends.push(
          service.sendMessage(a, team.team_ref, {
            sender_session_id: s,
            recipient_session_id: r,
            body: `${k}`,
          }),
        );
      }
    }
    // The 16th from one pair must fail with the cap even though it is in the same batch.
    sends.push(
      service.sendMessage(a, team.team_ref, {
        sender_session_id: pairs[0]?.[0] as string,
        recipient_session_id: pairs[0]?.[1] as string,
        body: "extra",
      }),
    );
    const settled = await Promise.allSettled(sends);
    expect(settled.slice(0, 45).every((s) => s.status === "fulfilled")).toBe(true);
    const last = settled[45];
    expect(last?.status).toBe("rejected");
    expect(((last as PromiseRejectedResult).reason as BapError).details).toEqual({
      reason: "sender_quota_for_recipient",
    });
    for (const [, r] of pairs) {
      expect((await service.receiveMessages(a, team.team_ref, r, 200)).messages).toHaveLength(15);
    }
    await store.close();
  });

  test("units queued while a batch commits run in a later batch and still resolve in order of work", async () => {
    const store = openSqliteStore(join(dir, "chain.db"));
    const order: number[] = [];
    const first = store.transact(async (tx) => {
      order.push(1);
      await tx.getTeam("t-x");
      return 1;
    });
    const second = first.then(() =>
      store.transact(async () => {
        order.push(2);
        return 2;
      }),
    );
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual([1, 2]);
    await store.close();
  });
});

describe("durability across reopen", () => {
  test("close the database, reopen the file: principals, teams, sessions, messages, acks are there", async () => {
    const path = join(dir, "reopen.db");
    const first = await seededService(path);
    const { principal_ref: a, token } = await first.service.createPrincipal();
    const team = await first.service.createTeam(a, { team_name: "core", human_label: "dana" });
    const reg = {
      harness: "h",
      harness_version: "1",
      activity: "busy",
      inbound: "accept",
      lease_seconds: 600,
    } as const;
    const s1 = (
      await first.service.registerSession(a, team.team_ref, { ...reg, session_name: "one" })
    ).session_id;
    const s2 = (
      await first.service.registerSession(a, team.team_ref, { ...reg, session_name: "two" })
    ).session_id;
    const m1 = await first.service.sendMessage(a, team.team_ref, {
      sender_session_id: s1,
      recipient_session_id: s2,
      body: "kept",
      idempotency_key: "k",
    });
    const m2 = await first.service.sendMessage(a, team.team_ref, {
      sender_session_id: s1,
      recipient_session_id: s2,
      body: "acked",
    });
    await first.service.ackMessages(a, team.team_ref, s2, { message_ids: [m2.message_id] });
    await first.store.close();

    const second = await seededService(path);
    expect(await second.service.authenticate(token)).toBe(a);
    const list = await second.service.listSessions(a, team.team_ref);
    expect(list.sessions.map((s) => s.session_name)).toEqual(["one", "two"]);
    const inbox = await second.service.receiveMessages(a, team.team_ref, s2);
    expect(inbox.messages.map((m) => m.message_id)).toEqual([m1.message_id]);
    const replay = await second.service.sendMessage(a, team.team_ref, {
      sender_session_id: s1,
      recipient_session_id: s2,
      body: "kept",
      idempotency_key: "k",
    });
    expect(replay).toEqual({ ...m1, duplicate: true });
    const joined = await second.service.joinTeam(a, { join_secret: team.join_secret });
    expect(joined.rejoined).toBe(true);
    await second.store.close();
  });
});
