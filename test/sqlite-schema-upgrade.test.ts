import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SQLITE_SCHEMA_VERSION } from "../src/store/sqlite/index.ts";
import { apiCall, type Json } from "./support/api-call.ts";
import {
  BUILT_CLI,
  ensureBuilt,
  exited,
  REPO_ROOT,
  startServerProcess,
} from "./support/server-process.ts";

const FIXTURES = join(REPO_ROOT, "test", "testdata", "sqlite-schema");
const ALICE = "fixtureAliceToken-000000000000000000000000a";
const BOB = "fixtureBobToken-00000000000000000000000000b";
const TEAM = "t-7ea30000000000000001";
const ALPHA = "s-a1000000000000000001";
const BETA = "s-b2000000000000000002";

let root: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "brigade-schema-"));
});

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGTERM");
    await exited(child);
  }
  rmSync(root, { recursive: true, force: true });
});

/** Every fixture's version, from its file name. */
function fixtureVersions(): number[] {
  return readdirSync(FIXTURES)
    .map((name) => /^v(\d+)\.sql$/.exec(name)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** A private data file loaded from a fixture dump. */
function loadFixture(version: number, name: string): string {
  const folder = join(root, name);
  mkdirSync(folder, { mode: 0o700 });
  const file = join(folder, "brigade.sqlite");
  const db = new Database(file);
  db.exec(readFileSync(join(FIXTURES, `v${version}.sql`), "utf8"));
  db.close();
  chmodSync(file, 0o600);
  return file;
}

describe("SQLite schema upgrades", () => {
  test("there is a fixture for every released schema before the current one", () => {
    const versions = fixtureVersions();
    for (let v = 1; v < SQLITE_SCHEMA_VERSION; v += 1) expect(versions, `v${v}.sql`).toContain(v);
    expect(Math.max(...versions)).toBeLessThanOrEqual(SQLITE_SCHEMA_VERSION);
  });

  test.each(fixtureVersions())(
    "a data file of schema %i is migrated by brigade serve with its data intact and usable",
    async (version) => {
      const file = loadFixture(version, `v${version}`);
      const before = new Database(file, { readonly: true });
      expect(before.prepare("SELECT version FROM schema_version").get()).toEqual({ version });
      before.close();

      const server = await startServerProcess(file);
      children.push(server.child);
      const members = await apiCall(server.url, "GET", `/v1/teams/${TEAM}/members`, {
        token: ALICE,
      });
      expect(members.status).toBe(200);
      expect(
        (members.json.result as { members: { human_label: string }[] }).members
          .map((m) => m.human_label)
          .sort(),
      ).toEqual(["Alice", "Bob"]);

      const inbox = await apiCall(
        server.url,
        "GET",
        `/v1/teams/${TEAM}/sessions/${BETA}/messages`,
        { token: BOB },
      );
      expect(inbox.status).toBe(200);
      const messages = (inbox.json.result as { messages: Json[] }).messages;
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        message_id: "m-0000000000000000aa01",
        body: `written by schema version ${version}`,
        summary: "before the upgrade",
      });
      const acked = await apiCall(server.url, "POST", `/v1/teams/${TEAM}/sessions/${BETA}/ack`, {
        token: BOB,
        body: { message_ids: ["m-0000000000000000aa01"] },
      });
      expect(acked.json.result).toEqual({ acked: ["m-0000000000000000aa01"], unknown: [] });
      const sent = await apiCall(server.url, "POST", `/v1/teams/${TEAM}/messages`, {
        token: ALICE,
        body: { sender_session_id: ALPHA, recipient_session_id: BETA, body: "after the upgrade" },
      });
      expect(sent.status).toBe(200);
      const again = await apiCall(
        server.url,
        "GET",
        `/v1/teams/${TEAM}/sessions/${BETA}/messages`,
        { token: BOB },
      );
      expect((again.json.result as { messages: Json[] }).messages.map((m) => m.body)).toEqual([
        "after the upgrade",
      ]);

      server.child.kill("SIGTERM");
      await exited(server.child);
      const after = new Database(file, { readonly: true });
      expect(after.prepare("SELECT version FROM schema_version").get()).toEqual({
        version: SQLITE_SCHEMA_VERSION,
      });
      expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(after.pragma("foreign_key_check")).toEqual([]);
      // Migration 3's mark: teams that existed before it count as used.
      expect(after.prepare("SELECT used_at IS NOT NULL AS used FROM teams").get()).toEqual({
        used: 1,
      });
      expect(after.prepare("SELECT COUNT(*) AS n FROM messages").get()).toEqual({ n: 3 });
      // Migration 6: a live delivery stored before it was last said at the session's last heartbeat
      // (a version-6 file holds the times migration 6 wrote).
      expect(
        after.prepare("SELECT live_delivery_at FROM sessions ORDER BY session_id").all(),
      ).toEqual(
        version >= 5
          ? [{ live_delivery_at: 1767225602000 }, { live_delivery_at: 1767225603000 }]
          : [{ live_delivery_at: null }, { live_delivery_at: null }],
      );
      // Migration 7: no team had a transfer offer standing before offers existed; migration 12
      // gives an end only to an offer that stands (the store tests hold one at the upgrade).
      expect(
        after.prepare("SELECT offered_to_principal_ref, offer_expires_at FROM teams").all(),
      ).toEqual([{ offered_to_principal_ref: null, offer_expires_at: null }]);
      // Migration 8: no invitation existed before invitations did.
      expect(after.prepare("SELECT COUNT(*) AS n FROM invitations").get()).toEqual({ n: 0 });
      // Migration 9: no message named an attachment before attachments existed.
      expect(
        after.prepare("SELECT COUNT(*) AS n FROM messages WHERE attachments IS NOT NULL").get(),
      ).toEqual({ n: 0 });
      after.close();
    },
  );

  test("a data file of a newer schema is refused with both versions named, and left as it was", () => {
    const file = loadFixture(fixtureVersions().at(-1) as number, "newer");
    const db = new Database(file);
    db.prepare("UPDATE schema_version SET version = ?").run(SQLITE_SCHEMA_VERSION + 1);
    db.close();
    const digest = (): string => createHash("sha256").update(readFileSync(file)).digest("hex");
    const was = digest();
    const r = spawnSync(process.execPath, [BUILT_CLI, "serve", "--port", "0", "--data", file], {
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `brigade serve: cannot start (schema_too_new): the data file has schema version ${SQLITE_SCHEMA_VERSION + 1}, newer than the ${SQLITE_SCHEMA_VERSION} this program knows: run the Brigade version that wrote it (or newer), or restore a backup made before the upgrade\n`,
    );
    expect(digest()).toBe(was);
  });
});
