import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Client } from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { sessionRegistration } from "../../../test/support/session-registration.ts";
import { runMigrateStore } from "../../cli/migrate-store-command.ts";
import { BapError } from "../../protocol/index.ts";
import { BrigadeService, type PersonMessageRow, type Store } from "../../service/index.ts";
import { readCopyTargetState } from "../postgres/copy-target-state.ts";
import {
  openPostgresStore,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
} from "../postgres/index.ts";
import { openSqliteExport, openSqliteStore } from "../sqlite/index.ts";
import { MigrationError, migrateStore } from "./migrate-store.ts";

const dir = mkdtempSync(join(tmpdir(), "brigade-migrate-"));
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

/** `brigade migrate-store ARGV` in process: its exit status and what it printed. */
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runMigrateStore(argv, {
    stdin: (async function* () {})(),
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env: {},
  });
  return { code, out, err };
}

/** `bytes` as an upload's body, in 100,000-byte pieces. */
async function* chunksOf(bytes: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 100_000) yield bytes.subarray(at, at + 100_000);
}

/** A SQLite file with every kind of row, through the real service; returns what to check. */
async function populatedSqlite(file: string) {
  const store = openSqliteStore(file);
  const service = new BrigadeService(store);
  const alice = await service.createPrincipal();
  const bob = await service.createPrincipal();
  const carol = await service.createPrincipal();
  const idle = await service.createPrincipal();
  const team = await service.createTeam(alice.principal_ref, {
    team_name: "core",
    human_label: "alice",
  });
  const T = team.team_ref;
  await service.createTeam(alice.principal_ref, { team_name: "never used" });
  await service.joinTeam(bob.principal_ref, { join_secret: team.join_secret, human_label: "bob" });
  await service.joinTeam(carol.principal_ref, { join_secret: team.join_secret });
  await service.leaveTeam(carol.principal_ref, T);
  // Two invitations: one still good, one revoked (only their digests are stored).
  const invitation = await service.createInvitation(alice.principal_ref, T, { max_uses: 2 });
  const revoked = await service.createInvitation(alice.principal_ref, T, {});
  await service.revokeInvitation(alice.principal_ref, T, { invitation_id: revoked.invitation_id });
  // A standing offer of the team (team transfer), which bob has not accepted yet.
  await service.transferTeam(alice.principal_ref, T, { principal_ref: bob.principal_ref });
  // A failed join, which the limiter counts.
  const wrong = `${team.join_secret.slice(0, -4)}AAAA`;
  await expect(service.joinTeam(idle.principal_ref, { join_secret: wrong })).rejects.toThrow(
    BapError,
  );
  const a = (await service.registerSession(alice.principal_ref, T, sessionRegistration("a")))
    .session_id;
  const b = (await service.registerSession(bob.principal_ref, T, sessionRegistration("b")))
    .session_id;
  const closed = (await service.registerSession(bob.principal_ref, T, sessionRegistration("gone")))
    .session_id;
  // Two messages to a session that ends: `b` adopts one of them (message.adopt).
  const toClosed: string[] = [];
  for (const body of ["to gone 1", "to gone 2"]) {
    const r = await service.sendMessage(alice.principal_ref, T, {
      sender_session_id: a,
      recipient_session_id: closed,
      body,
    });
    toClosed.push(r.message_id);
  }
  await service.messageReport(bob.principal_ref, T, closed, {
    message_ids: [toClosed[1] ?? ""],
    state: "refused",
  });
  await service.closeSession(bob.principal_ref, T, closed);
  const sent: string[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await service.sendMessage(alice.principal_ref, T, {
      sender_session_id: a,
      recipient_session_id: b,
      body: `body ${i}\u0000with a NUL`,
      ...(i % 3 === 0 ? { summary: `summary ${i}` } : {}),
      idempotency_key: `key-${i}`,
    });
    sent.push(r.message_id);
  }
  const reply = await service.sendMessage(bob.principal_ref, T, {
    sender_session_id: b,
    recipient_session_id: a,
    body: "a reply",
    reply_to: sent[0],
  });
  // Blobs (message.attachments): one of several chunks, one both alice and bob uploaded, named
  // by a message from b to a.
  const big = Buffer.from(Array.from({ length: 600_000 }, (_, i) => (i * 7) % 251));
  const small = Buffer.from("a small file\u0000with a NUL\n");
  const blobs = [big, small].map((bytes) => ({
    sha256: createHash("sha256").update(bytes).digest("hex"),
    size: bytes.length,
    bytes,
  }));
  for (const [uploader, blob] of [
    [bob, blobs[0]],
    [bob, blobs[1]],
    [alice, blobs[1]],
  ] as const) {
    if (blob === undefined) throw new Error("no blob");
    await service.uploadBlob(uploader.principal_ref, T, blob, chunksOf(blob.bytes));
  }
  await service.sendMessage(bob.principal_ref, T, {
    sender_session_id: b,
    recipient_session_id: a,
    body: "see attached",
    attachments: blobs.map((blob, i) => ({ sha256: blob.sha256, size: blob.size, name: `f${i}` })),
  });
  await service.ackMessages(bob.principal_ref, T, b, { message_ids: sent.slice(0, 5) });
  // Message states: reports of b's harness (one on a message acked since) and an adoption.
  await service.messageReport(bob.principal_ref, T, b, {
    message_ids: sent.slice(4, 6),
    state: "held",
  });
  await service.messageReport(bob.principal_ref, T, b, {
    message_ids: sent.slice(5, 7),
    state: "refused",
  });
  await service.ackMessages(bob.principal_ref, T, b, { message_ids: [sent[6] ?? ""] });
  await service.messageReport(bob.principal_ref, T, b, {
    message_ids: [sent[7] ?? "", sent[8] ?? ""],
    state: "held",
  });
  // Releases by bob from the dashboard: one still waiting for b's harness, one taken in since.
  await service.decideHeld(bob.principal_ref, T, sent[7] ?? "", "release");
  await service.decideHeld(bob.principal_ref, T, sent[8] ?? "", "release");
  await service.ackMessages(bob.principal_ref, T, b, { message_ids: [sent[8] ?? ""] });
  // Dashboard sign-ins, which the copy does not carry: bob is signed in; alice signed in and out,
  // and has a link unused (the summary counts only what still works: one of each).
  const link = await service.createWebLogin(bob.principal_ref, T);
  expect(await service.redeemWebLogin(link.secret)).not.toBeNull();
  const aliceLink = await service.createWebLogin(alice.principal_ref, T);
  await service.endWebSession((await service.redeemWebLogin(aliceLink.secret))?.secret ?? "");
  await service.createWebLogin(alice.principal_ref, T);
  const adopted = await service.adoptMessages(bob.principal_ref, T, b, {
    from_session_ids: [closed],
  });
  expect(adopted.messages).toHaveLength(2);
  const states = await service.messageState(alice.principal_ref, T, a, {
    message_ids: [...toClosed, ...sent],
  });
  const inboxB = (await service.receiveMessages(bob.principal_ref, T, b)).messages;
  const inboxA = (await service.receiveMessages(alice.principal_ref, T, a)).messages;
  await store.close();
  return {
    alice,
    bob,
    idle,
    blobs,
    T,
    invitation: invitation.invitation ?? "",
    revokedInvitation: revoked.invitation ?? "",
    joinSecret: team.join_secret,
    a,
    b,
    sent,
    reply,
    inboxA,
    inboxB,
    states,
    toClosed,
  };
}

/** The keys of everything a SQLite file holds, as its export lists them. */
function keysOf(file: string) {
  const source = openSqliteExport(file);
  try {
    return {
      tokenDigests: [...source.principals()].map((r) => r.token_digest),
      principals: [...source.principals()].map((r) => r.principal_ref),
      teams: [...source.teams()].map((r) => r.team_ref),
      memberships: [...source.memberships()].map((r) => [r.team_ref, r.principal_ref] as const),
      invitations: [...source.invitations()].map((r) => [r.team_ref, r.invitation_id] as const),
      sessions: [...source.sessions()].map((r) => r.session_id),
      messages: [...source.messages()].map((r) => [r.message_id, r.sender_session_id] as const),
      blobs: source.blobs().map((r) => [r.team_ref, r.sha256] as const),
      released: [...source.messages()].filter((r) => r.released_at !== null).length,
    };
  } finally {
    source.close();
  }
}

/**
 * Everything `store` answers about the rows named by `keys`, read through the Store port only:
 * each row by its key, and the lists and counts the service reads (inboxes, releases, listings,
 * a person's messages, blob bytes and who may read them, the join limiter's window).
 */
async function storeView(store: Store, keys: ReturnType<typeof keysOf>, now: number) {
  return store.transact(async (tx) => {
    const view: Record<string, unknown> = {};
    for (const digest of keys.tokenDigests)
      view[`principal ${digest}`] = await tx.principalByTokenDigest(digest);
    for (const team of keys.teams) {
      view[`team ${team}`] = await tx.getTeam(team);
      view[`members ${team}`] = await tx.listActiveMembers(team, now);
      view[`sessions ${team}`] = await tx.listTeamSessions(team, {
        now,
        includeOffline: true,
        limit: 1000,
      });
      view[`invitations ${team}`] = await tx.listInvitations(team, 1000);
      view[`blob bytes ${team}`] = await tx.teamBlobBytes(team);
      for (const principal of keys.principals) {
        view[`person ${team} ${principal}`] = await tx.personMessages(team, principal, 1000);
        view[`sent by ${team} ${principal}`] = await tx.sentByPrincipal(team, principal, 1000);
      }
    }
    for (const [team, principal] of keys.memberships)
      view[`membership ${team} ${principal}`] = await tx.getMembership(team, principal);
    for (const [team, id] of keys.invitations)
      view[`invitation ${id}`] = await tx.getInvitation(team, id);
    for (const session of keys.sessions) {
      view[`session ${session}`] = await tx.getSession(session);
      view[`inbox ${session}`] = await tx.listUnacked(session, 1000);
      view[`released for ${session}`] = await tx.releasedFor(session, 1000);
      view[`unacked for ${session}`] = await tx.unackedFor(session);
    }
    for (const [id, sender] of keys.messages) {
      view[`message ${id}`] = await tx.getMessage(id);
      view[`state ${id}`] = await tx.sentMessages(sender, { messageIds: [id] });
    }
    for (const [team, sha256] of keys.blobs) {
      const blob = await tx.getBlob(team, sha256);
      view[`blob ${sha256}`] = blob;
      view[`uploaders ${sha256}`] = await tx.blobUploaders(team, sha256);
      const chunks: string[] = [];
      for (let seq = 0; blob !== null; seq++) {
        const chunk = await tx.blobChunk(blob.content_id, seq);
        if (chunk === null) break;
        chunks.push(createHash("sha256").update(chunk).digest("hex"));
      }
      view[`chunks ${sha256}`] = chunks;
      for (const principal of keys.principals)
        view[`readable ${sha256} ${principal}`] = await tx.blobNamedFor(team, sha256, principal);
    }
    for (const principal of keys.principals)
      view[`join failures ${principal}`] = await tx.joinFailuresSince(principal, 0);
    return view;
  });
}

describe("migrateStore: SQLite → PostgreSQL", () => {
  test("copies everything, verifies it, and the service on PostgreSQL answers as on SQLite", async () => {
    const file = join(dir, "full.sqlite");
    const w = await populatedSqlite(file);
    const schema = await freshPostgresSchema("migrate");
    drops.push(schema.drop);
    const target = await openPostgresStore(schema.url);
    const source = openSqliteExport(file);
    try {
      const report = await migrateStore(source, target, {
        targetHoldsData: false,
        targetServed: false,
      });
      expect(report.verified).toBe(true);
      const counts = Object.fromEntries(
        Object.entries(report.kinds).map(([k, v]) => [k, [v.source, v.copied, v.already_present]]),
      );
      expect(counts).toEqual({
        principals: [4, 4, 0],
        teams: [2, 2, 0],
        memberships: [4, 4, 0],
        invitations: [2, 2, 0],
        sessions: [3, 3, 0],
        blobs: [2, 2, 0],
        messages: [16, 16, 0],
        join_failures: [1, 1, 0],
      });

      const service = new BrigadeService(target);
      // Tokens still authenticate (the digests came along).
      expect(await service.authenticate(w.alice.token)).toBe(w.alice.principal_ref);
      // The invitations came along: the revoked one says so, the good one admits.
      await expect(
        service.joinTeam(w.idle.principal_ref, { join_secret: w.revokedInvitation }),
      ).rejects.toMatchObject({ details: { reason: "invitation_revoked" } });
      expect(
        (await service.joinTeam(w.idle.principal_ref, { join_secret: w.invitation })).team_ref,
      ).toBe(w.T);
      await service.leaveTeam(w.idle.principal_ref, w.T);
      // The standing offer came along: bob takes the team on PostgreSQL.
      expect((await service.acceptTransfer(w.bob.principal_ref, w.T)).creator_principal_ref).toBe(
        w.bob.principal_ref,
      );
      // The same inboxes, in the same order, acked ones gone.
      expect((await service.receiveMessages(w.bob.principal_ref, w.T, w.b)).messages).toEqual(
        w.inboxB,
      );
      expect((await service.receiveMessages(w.alice.principal_ref, w.T, w.a)).messages).toEqual(
        w.inboxA,
      );
      // Blobs came along, byte for byte: the recipient reads both, the sender its own.
      for (const blob of w.blobs) {
        const open = await service.openBlob(w.alice.principal_ref, w.T, blob.sha256);
        const parts: Buffer[] = [];
        for await (const part of open.body) parts.push(Buffer.from(part));
        expect(Buffer.concat(parts).equals(blob.bytes)).toBe(true);
      }
      await expect(
        service.openBlob(w.idle.principal_ref, w.T, w.blobs[0]?.sha256 ?? ""),
      ).rejects.toMatchObject({
        code: "unauthorized",
      });
      // Message states came along: reports, the time of each, and who adopted what.
      const states = await service.messageState(w.alice.principal_ref, w.T, w.a, {
        message_ids: [...w.toClosed, ...w.sent],
      });
      expect(states).toEqual(w.states);
      expect(
        w.states.messages.map((m: { state: string }) => m.state).filter((st) => st !== "acked"),
      ).toEqual(expect.arrayContaining(["held", "refused", "accepted"]));
      expect(
        w.states.messages.filter(
          (m: { offered_to_session_id?: string }) => m.offered_to_session_id === w.b,
        ),
      ).toHaveLength(2);
      // The adopting session answers for the adopted messages on the new store too.
      await service.ackMessages(w.bob.principal_ref, w.T, w.b, { message_ids: w.toClosed });
      const acked = await service.messageState(w.alice.principal_ref, w.T, w.a, {
        message_ids: w.toClosed,
      });
      expect(acked.messages.map((m: { state: string }) => m.state)).toEqual(["acked", "acked"]);
      // Idempotency keys came along: a replay answers the original.
      const replay = await service.sendMessage(w.alice.principal_ref, w.T, {
        sender_session_id: w.a,
        recipient_session_id: w.b,
        body: "body 11\u0000with a NUL",
        idempotency_key: "key-11",
      });
      expect(replay).toMatchObject({ message_id: w.sent[11], duplicate: true });
      // Rate windows count the copied messages: 14 sent by `a` in this minute, 20 allowed.
      for (let i = 0; i < 6; i++) {
        await service.sendMessage(w.alice.principal_ref, w.T, {
          sender_session_id: w.a,
          recipient_session_id: w.a,
          body: `more ${i}`,
        });
      }
      await expect(
        service.sendMessage(w.alice.principal_ref, w.T, {
          sender_session_id: w.a,
          recipient_session_id: w.a,
          body: "one too many",
        }),
      ).rejects.toMatchObject({ code: "rate_limited" });
    } finally {
      source.close();
      await target.close();
    }
  });

  test("round trip: every row read through the PostgreSQL store equals the same row read through the SQLite store, field by field", async () => {
    const file = join(dir, "round-trip.sqlite");
    const w = await populatedSqlite(file);
    const keys = keysOf(file);
    // The file holds what this test is for: releases (one waiting, one taken in since).
    expect(keys.released).toBe(2);
    const schema = await freshPostgresSchema("migrate_round_trip");
    drops.push(schema.drop);
    const copy = await run("--from", `sqlite:${file}`, "--to", schema.url);
    expect(copy.code).toBe(0);
    const now = Date.now();
    const sqlite = openSqliteStore(file);
    const postgres = await openPostgresStore(schema.url);
    try {
      const before = await storeView(sqlite, keys, now);
      const after = await storeView(postgres, keys, now);
      // Field by field: a key that differs is named with both values.
      for (const key of Object.keys(before)) expect([key, after[key]]).toEqual([key, before[key]]);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      // The release came along: b's harness is told of the released message at its heartbeat,
      // and both releases show on the recipient's dashboard.
      expect(after[`released for ${w.b}`]).toEqual([w.sent[7]]);
      const released = (after[`person ${w.T} ${w.bob.principal_ref}`] as PersonMessageRow[])
        .filter((m) => m.released_at !== null)
        .map((m) => m.message_id);
      expect(released.sort()).toEqual([w.sent[7], w.sent[8]].sort());
    } finally {
      await sqlite.close();
      await postgres.close();
    }
    // What the port cannot read: a team's first-use mark, which the unused-team sweep reads.
    const db = new Database(file, { readonly: true });
    const client = new Client({ connectionString: schema.url });
    await client.connect();
    try {
      const marks = db.prepare("SELECT team_ref, used_at FROM teams ORDER BY team_ref").all();
      const copied = await client.query(
        "SELECT team_ref, used_at::float8 AS used_at FROM teams ORDER BY team_ref",
      );
      expect(copied.rows).toEqual(marks);
      expect(marks.some((m) => (m as { used_at: number | null }).used_at === null)).toBe(true);
    } finally {
      db.close();
      await client.end();
    }
  });

  test("a target holding data is refused unless told; a re-run duplicates nothing and verifies", async () => {
    const file = join(dir, "rerun.sqlite");
    await populatedSqlite(file);
    const schema = await freshPostgresSchema("migrate");
    drops.push(schema.drop);
    const target = await openPostgresStore(schema.url, { copyTarget: true });
    try {
      const first = openSqliteExport(file);
      await migrateStore(first, target, { targetHoldsData: false, targetServed: false });
      first.close();
      const second = openSqliteExport(file);
      await expect(
        migrateStore(second, target, { targetHoldsData: true, targetServed: false }),
      ).rejects.toEqual(new MigrationError("target_not_empty"));
      const report = await migrateStore(second, target, {
        targetHoldsData: true,
        targetServed: false,
        intoNonEmpty: true,
      });
      second.close();
      expect(report.verified).toBe(true);
      for (const kind of [
        "principals",
        "teams",
        "memberships",
        "sessions",
        "blobs",
        "messages",
      ] as const) {
        expect(report.kinds[kind].copied).toBe(0);
        expect(report.kinds[kind].already_present).toBe(report.kinds[kind].source);
      }
      expect(report.kinds.join_failures.copied).toBe(0);
    } finally {
      await target.close();
    }
  });

  test("a re-run carries a release made on the SQLite file since the interrupted copy", async () => {
    const file = join(dir, "rerun-release.sqlite");
    const w = await populatedSqlite(file);
    const schema = await freshPostgresSchema("migrate_rerun_release");
    drops.push(schema.drop);
    const target = await openPostgresStore(schema.url, { copyTarget: true });
    try {
      const first = openSqliteExport(file);
      await migrateStore(first, target, { targetHoldsData: false, targetServed: false });
      first.close();
      // The SQLite server ran again meanwhile: bob released the adopted message b holds.
      const again = openSqliteStore(file);
      await new BrigadeService(again).decideHeld(
        w.bob.principal_ref,
        w.T,
        w.toClosed[0] ?? "",
        "release",
      );
      await again.close();
      const second = openSqliteExport(file);
      const report = await migrateStore(second, target, {
        targetHoldsData: true,
        targetServed: false,
        intoNonEmpty: true,
      });
      second.close();
      expect(report.verified).toBe(true);
      expect(await target.transact((tx) => tx.releasedFor(w.b, 10))).toEqual([
        w.toClosed[0],
        w.sent[7],
      ]);
    } finally {
      await target.close();
    }
  });

  test("a row that reads back differently fails the verification", async () => {
    const file = join(dir, "verify.sqlite");
    await populatedSqlite(file);
    const inner = openSqliteStore(":memory:");
    // A target that silently loses every session description and lease change.
    const lossy: Store = {
      transact: (unit) =>
        inner.transact((tx) =>
          unit(
            new Proxy(tx, {
              get(target, name, receiver) {
                if (name === "getSession")
                  return async (id: string) => {
                    const row = await target.getSession(id);
                    return row === null ? null : { ...row, lease_until: row.lease_until + 1 };
                  };
                const value = Reflect.get(target, name, receiver);
                return typeof value === "function" ? value.bind(target) : value;
              },
            }),
          ),
        ),
      close: () => inner.close(),
    };
    const source = openSqliteExport(file);
    try {
      await expect(
        migrateStore(source, lossy, { targetHoldsData: false, targetServed: false }),
      ).rejects.toEqual(new MigrationError("verification_failed"));
    } finally {
      source.close();
      await lossy.close();
    }
  });

  test("brigade migrate-store: exit statuses, the refusal of a non-empty target, no password printed", async () => {
    const file = join(dir, "cli.sqlite");
    await populatedSqlite(file);
    const schema = await freshPostgresSchema("migrate");
    drops.push(schema.drop);
    const withPassword = new URL(schema.url);
    withPassword.password = "sekret-pw";
    const first = await run("--from", `sqlite:${file}`, "--to", withPassword.toString());
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/messages\s+16 rows\s+16 copied/);
    expect(first.out).toMatch(/blobs\s+2 rows\s+2 copied/);
    expect(first.out).toContain(
      "  not carried: dashboard sign-ins (1 signed-in browser and 1 unused login link end here); sign in again with brigade dashboard\n",
    );
    const again = await run("--from", `sqlite:${file}`, "--to", withPassword.toString());
    expect(again.code).toBe(1);
    expect(again.err).toContain("already holds data; nothing was written");
    const merged = await run(
      "--from",
      `sqlite:${file}`,
      "--to",
      withPassword.toString(),
      "--into-non-empty",
      "--json",
    );
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.out)).toMatchObject({
      verified: true,
      not_carried: { web_sessions: 1, web_logins: 1 },
    });
    expect(again.err).toContain("re-run with --into-non-empty to finish an interrupted copy");
    for (const r of [first, again, merged]) expect(r.out + r.err).not.toContain("sekret-pw");
    const missing = await run("--from", `sqlite:${join(dir, "none.sqlite")}`, "--to", schema.url);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("check the path after sqlite:");
    // A path without the prefix is told how to write it, not only that --from is required.
    await expect(run("--from", file, "--to", schema.url)).rejects.toThrow(
      "write sqlite: before the data file's path",
    );
    // A target that cannot be used says why and what to check, never its password.
    const nowhere = await run(
      "--from",
      `sqlite:${file}`,
      "--to",
      "postgres://u:sekret-pw@127.0.0.1:1/d",
    );
    expect(nowhere.code).toBe(1);
    expect(nowhere.err).toBe(
      "brigade migrate-store: cannot open postgres://u@127.0.0.1:1/d (store_unavailable): the database is unreachable; check the address and that PostgreSQL runs\n",
    );
    const noDatabase = new URL(schema.url);
    noDatabase.pathname = "/no_such_database";
    const refused = await run("--from", `sqlite:${file}`, "--to", noDatabase.toString());
    expect(refused.err).toContain("(3D000): the database does not exist\n");
    // A database a newer Brigade migrated is named as such, not as a failed connection.
    const newer = await freshPostgresSchema("migrate_newer");
    drops.push(newer.drop);
    const client = new Client({ connectionString: newer.url });
    await client.connect();
    try {
      await client.query("CREATE TABLE schema_version (version integer NOT NULL)");
      await client.query("INSERT INTO schema_version VALUES ($1)", [POSTGRES_SCHEMA_VERSION + 1]);
    } finally {
      await client.end();
    }
    const tooNew = await run("--from", `sqlite:${file}`, "--to", newer.url);
    expect(tooNew.code).toBe(1);
    expect(tooNew.err).toContain(
      "(schema_too_new): the database schema is newer than this program\n",
    );
    expect(tooNew.err).not.toContain("connection");
  });

  test("a copy never undoes a server's changes: a database a server opened is refused, even with --into-non-empty", async () => {
    const file = join(dir, "served.sqlite");
    const w = await populatedSqlite(file);
    const schema = await freshPostgresSchema("migrate_served");
    drops.push(schema.drop);
    expect((await run("--from", `sqlite:${file}`, "--to", schema.url)).code).toBe(0);
    // The server goes live on PostgreSQL: the creator removes bob and rotates the secret.
    const live = await openPostgresStore(schema.url);
    const service = new BrigadeService(live);
    let rotated: string;
    let digest: string | undefined;
    try {
      await service.revokeMember(w.alice.principal_ref, w.T, {
        principal_ref: w.bob.principal_ref,
      });
      rotated = (await service.rotateSecret(w.alice.principal_ref, w.T)).join_secret;
      digest = (await live.transact((tx) => tx.getTeam(w.T)))?.secret_digest;
    } finally {
      await live.close();
    }
    for (const flags of [["--into-non-empty"], []]) {
      const copy = await run("--from", `sqlite:${file}`, "--to", schema.url, ...flags);
      expect(copy.code).toBe(1);
      expect(copy.err).toContain("holds data a brigade serve has used; nothing was written");
    }
    // Nothing came back: bob stays removed, the rotated secret is the one that admits.
    const after = await openPostgresStore(schema.url);
    const again = new BrigadeService(after);
    try {
      const membership = await after.transact((tx) => tx.getMembership(w.T, w.bob.principal_ref));
      expect(membership?.status).toBe("revoked");
      expect((await after.transact((tx) => tx.getTeam(w.T)))?.secret_digest).toBe(digest);
      const newcomer = await again.createPrincipal();
      await expect(
        again.joinTeam(newcomer.principal_ref, { join_secret: w.joinSecret }),
      ).rejects.toThrow(BapError);
      await again.joinTeam(newcomer.principal_ref, { join_secret: rotated });
      await expect(again.joinTeam(w.bob.principal_ref, { join_secret: rotated })).rejects.toThrow(
        BapError,
      );
    } finally {
      await after.close();
    }
  });

  test("the served mark: a copy target's opening records nothing, a server's does, and data from before the mark counts as served", async () => {
    const fresh = await freshPostgresSchema("migrate_mark");
    drops.push(fresh.drop);
    await (await openPostgresStore(fresh.url, { copyTarget: true })).close();
    expect(await readCopyTargetState(fresh.url)).toEqual({ holdsData: false, served: false });
    const file = join(dir, "mark.sqlite");
    await populatedSqlite(file);
    expect((await run("--from", `sqlite:${file}`, "--to", fresh.url)).code).toBe(0);
    expect(await readCopyTargetState(fresh.url)).toEqual({ holdsData: true, served: false });
    // A re-run before any server opened the database finishes the copy.
    expect(
      (await run("--from", `sqlite:${file}`, "--to", fresh.url, "--into-non-empty")).code,
    ).toBe(0);
    await (await openPostgresStore(fresh.url)).close();
    expect(await readCopyTargetState(fresh.url)).toEqual({ holdsData: true, served: true });
    const source = openSqliteExport(file);
    const target = await openPostgresStore(fresh.url, { copyTarget: true });
    try {
      await expect(
        migrateStore(source, target, { targetHoldsData: true, targetServed: true }),
      ).rejects.toEqual(new MigrationError("target_served"));
    } finally {
      source.close();
      await target.close();
    }

    // A version-4 database holding rows (an older server may have written them) is served.
    const old = await freshPostgresSchema("migrate_mark_v4");
    drops.push(old.drop);
    const client = new Client({ connectionString: old.url });
    await client.connect();
    try {
      await client.query("CREATE TABLE schema_version (version integer NOT NULL)");
      await client.query("INSERT INTO schema_version VALUES (4)");
      for (const step of POSTGRES_MIGRATIONS.slice(0, 4)) await client.query(step);
      await client.query("INSERT INTO principals VALUES ('p-a', 'd-a', 1)");
    } finally {
      await client.end();
    }
    await (await openPostgresStore(old.url, { copyTarget: true })).close();
    expect(await readCopyTargetState(old.url)).toEqual({ holdsData: true, served: true });
  });
});
