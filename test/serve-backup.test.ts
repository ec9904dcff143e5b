import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCall, type Json, mintToken } from "./support/api-call.ts";
import { BUILT_CLI, ensureBuilt, exited, startServerProcess } from "./support/server-process.ts";
import { sessionRegistration } from "./support/session-registration.ts";

let root: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "brigade-backup-"));
});

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGTERM");
    await exited(child);
  }
  rmSync(root, { recursive: true, force: true });
});

/** Runs `brigade backup …` to its end: the exit status and output. */
function backup(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BUILT_CLI, "backup", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve) =>
    child.once("close", (status) => resolve({ status, stdout, stderr })),
  );
}

/** A team whose members own `count` sender sessions (split over two principals) and as many recipients. */
async function loadWorld(url: string, count: number) {
  const senders: [string, string] = [await mintToken(url), await mintToken(url)];
  const reader = await mintToken(url);
  const team = (
    await apiCall(url, "POST", "/v1/teams", { token: senders[0], body: { team_name: "load" } })
  ).json.result as Json;
  const teamRef = team.team_ref as string;
  for (const token of [senders[1], reader]) {
    await apiCall(url, "POST", "/v1/teams/join", {
      token,
      body: { join_secret: team.join_secret as string },
    });
  }
  const register = async (token: string, name: string): Promise<string> => {
    const r = await apiCall(url, "POST", `/v1/teams/${teamRef}/sessions`, {
      token,
      body: { ...sessionRegistration(name) },
    });
    return (r.json.result as Json).session_id as string;
  };
  const pairs: { token: string; from: string; to: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const token = senders[i % 2] as string;
    pairs.push({
      token,
      from: await register(token, `sender-${i}`),
      to: await register(reader, `reader-${i}`),
    });
  }
  return { teamRef, reader, pairs };
}

describe("brigade backup", () => {
  test("a copy made while the server runs under a send load holds every message acknowledged before it began, passes integrity_check, and serves again", async () => {
    const dataFile = join(root, "live", "brigade.sqlite");
    const server = await startServerProcess(dataFile);
    children.push(server.child);
    const world = await loadWorld(server.url, 6);
    const body = "x".repeat(4000);
    const acknowledged: { id: string; to: string; at: number }[] = [];
    let backupStarted = Number.POSITIVE_INFINITY;
    const load = world.pairs.map(async (pair) => {
      // 15 per pair: the protocol's cap of unacknowledged messages from one sender to one recipient.
      for (let n = 0; n < 15; n += 1) {
        const r = await apiCall(server.url, "POST", `/v1/teams/${world.teamRef}/messages`, {
          token: pair.token,
          body: {
            sender_session_id: pair.from,
            recipient_session_id: pair.to,
            body: `${n} ${body}`,
          },
        });
        expect(r.status).toBe(200);
        acknowledged.push({
          id: (r.json.result as Json).message_id as string,
          to: pair.to,
          at: performance.now(),
        });
      }
    });
    while (acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 5));
    const copy = join(root, "copy.sqlite");
    backupStarted = performance.now();
    const made = await backup([dataFile, copy]);
    const backupEnded = performance.now();
    await Promise.all(load);
    const during = acknowledged.filter((m) => m.at > backupStarted && m.at < backupEnded);
    expect(during.length).toBeGreaterThan(0);
    expect(made.stderr).toBe("");
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(
      /^brigade backup: copied the data file \(schema \d+, \d+ pages, integrity ok\)\n$/,
    );
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    const before = acknowledged.filter((m) => m.at < backupStarted);
    expect(before.length).toBeGreaterThanOrEqual(30);
    expect(acknowledged.length).toBe(90);

    const db = new Database(copy, { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();

    // Restore as docs/50-operator.md says: stop, drop -wal/-shm, the copy in place, start.
    server.child.kill("SIGTERM");
    await exited(server.child);
    rmSync(`${dataFile}-wal`, { force: true });
    rmSync(`${dataFile}-shm`, { force: true });
    copyFileSync(copy, dataFile);
    const restored = await startServerProcess(dataFile);
    children.push(restored.child);
    const present = new Set<string>();
    for (const pair of world.pairs) {
      const r = await apiCall(
        restored.url,
        "GET",
        `/v1/teams/${world.teamRef}/sessions/${pair.to}/messages?limit=200`,
        {
          token: world.reader,
        },
      );
      expect(r.status).toBe(200);
      for (const m of (r.json.result as { messages: { message_id: string }[] }).messages)
        present.add(m.message_id);
    }
    const missing = before.filter((m) => !present.has(m.id));
    expect(missing).toEqual([]);
    // And it is usable: acknowledge one inbox and send into it again.
    const first = world.pairs[0] as (typeof world.pairs)[number];
    const inbox = [...present].filter(
      (id) => acknowledged.find((m) => m.id === id)?.to === first.to,
    );
    const acked = await apiCall(
      restored.url,
      "POST",
      `/v1/teams/${world.teamRef}/sessions/${first.to}/ack`,
      {
        token: world.reader,
        body: { message_ids: inbox },
      },
    );
    expect((acked.json.result as { acked: string[] }).acked).toHaveLength(inbox.length);
    const again = await apiCall(restored.url, "POST", `/v1/teams/${world.teamRef}/messages`, {
      token: first.token,
      body: {
        sender_session_id: first.from,
        recipient_session_id: first.to,
        body: "after restore",
      },
    });
    expect(again.status).toBe(200);
  });

  test("never overwrites without --force, never replaces a link, refuses what is not a data file, and leaves nothing behind when interrupted", async () => {
    const dataFile = join(root, "small", "brigade.sqlite");
    const server = await startServerProcess(dataFile);
    children.push(server.child);
    await mintToken(server.url);
    const out = join(root, "small-copy.sqlite");
    writeFileSync(out, "keep me", { mode: 0o600 });
    const refused = await backup([dataFile, out]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "brigade backup: cannot back up (backup_target_exists): the output file already exists; choose another name, or pass --force to replace it\n",
    );
    expect(spawnSync("cat", [out], { encoding: "utf8" }).stdout).toBe("keep me");
    expect((await backup([dataFile, out, "--force"])).status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const link = join(root, "link.sqlite");
    spawnSync("ln", ["-s", join(root, "elsewhere.sqlite"), link]);
    const viaLink = await backup([dataFile, link, "--force"]);
    expect(viaLink.stderr).toContain("(backup_target_not_regular)");
    expect(existsSync(join(root, "elsewhere.sqlite"))).toBe(false);

    // Never over the live files, whatever the spelling and even with --force.
    for (const live of [
      `${dataFile}-wal`,
      `${dataFile}-shm`,
      join(root, "small", ".", "brigade.sqlite-wal"),
    ]) {
      const r = await backup([dataFile, live, "--force"]);
      expect(r.stderr, live).toContain("(backup_target_is_source)");
    }
    const hardLink = join(root, "hard-link.sqlite");
    spawnSync("ln", [dataFile, hardLink]);
    expect((await backup([dataFile, hardLink, "--force"])).stderr).toContain(
      "(backup_target_is_source)",
    );
    expect((await apiCall(server.url, "GET", "/v1/health")).status).toBe(200);

    const notData = join(root, "not-data.txt");
    writeFileSync(notData, "hello");
    expect((await backup([notData, join(root, "x.sqlite")])).stderr).toContain(
      "(backup_source_invalid)",
    );
    expect((await backup([join(root, "missing.sqlite"), join(root, "y.sqlite")])).stderr).toContain(
      "(backup_source_missing)",
    );
    expect((await backup([dataFile, join(root, "no", "folder", "z.sqlite")])).stderr).toContain(
      "(backup_target_folder_missing)",
    );
    expect((await backup([dataFile])).status).toBe(2);
    expect((await backup([dataFile, dataFile])).status).toBe(2);

    // Interrupted at different moments: the output is either absent or a whole checked copy.
    // SIGHUP is what closing the terminal sends.
    for (const [delay, signal] of [0, 40, 80, 120, 160].flatMap((d) =>
      (["SIGINT", "SIGHUP"] as const).map((s) => [d, s] as const),
    )) {
      const target = join(root, `interrupted-${delay}-${signal}.sqlite`);
      const child = spawn(process.execPath, [BUILT_CLI, "backup", dataFile, target], {
        stdio: "ignore",
      });
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill(signal);
      await exited(child);
      if (existsSync(target)) {
        const db = new Database(target, { readonly: true });
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        db.close();
      }
    }
    expect(
      readdirSync(root).filter((name) => name.includes(".tmp") || name.endsWith("-journal")),
    ).toEqual([]);
    expect((await apiCall(server.url, "GET", "/v1/health")).status).toBe(200);
  });
});
