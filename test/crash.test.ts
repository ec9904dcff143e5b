import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { validateMessageEnvelope } from "../src/protocol/index.ts";
import { callServer, mustCall, newPrincipal, newSession } from "./support/http-client.ts";
import {
  ensureBuilt,
  exited,
  type ServerProcess,
  startServerProcess,
} from "./support/server-process.ts";

const SENDERS = 8;
const RECIPIENTS = 4;
const PER_PAIR = 5;
/** Kill the server once this many sends have been answered `accepted`. */
const KILL_AFTER_ACCEPTED = 70;

let dir: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "brigade-crash-"));
});

afterAll(async () => {
  if (server !== undefined) {
    server.child.kill("SIGKILL");
    await exited(server.child);
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("crash safety of brigade serve on SQLite", () => {
  test("SIGKILL during concurrent sends and acks loses no accepted message and resurrects no acked one", async () => {
    const dataFile = join(dir, "brigade.sqlite");
    server = await startServerProcess(dataFile);
    const base = server.url;

    const owner = await newPrincipal(base);
    const team = await mustCall(base, "POST", "/v1/teams", owner, { team_name: "crash" });
    const teamRef = team.team_ref as string;
    const recipients: string[] = [];
    for (let r = 0; r < RECIPIENTS; r++)
      recipients.push(await newSession(base, owner, teamRef, `r${r}`));
    const senders: { token: string; session: string }[] = [];
    for (let s = 0; s < SENDERS; s++) {
      const token = await newPrincipal(base);
      await mustCall(base, "POST", "/v1/teams/join", token, { join_secret: team.join_secret });
      senders.push({ token, session: await newSession(base, token, teamRef, `s${s}`) });
    }

    const accepted = new Set<string>();
    const ackAttempted = new Set<string>();
    const ackConfirmed = new Set<string>();
    let killed = false;
    const kill = (): void => {
      if (killed) return;
      killed = true;
      server?.child.kill("SIGKILL");
    };

    const sendAll = senders.map(async ({ token, session }, s) => {
      for (let i = 0; i < PER_PAIR * RECIPIENTS && !killed; i++) {
        const recipient = recipients[i % RECIPIENTS] as string;
        try {
          const envelope = await callServer(base, "POST", `/v1/teams/${teamRef}/messages`, token, {
            sender_session_id: session,
            recipient_session_id: recipient,
            body: `message ${s}.${i}`,
          });
          if (envelope.ok) accepted.add(envelope.result?.message_id as string);
          if (accepted.size >= KILL_AFTER_ACCEPTED) kill();
        } catch {
          return; // The server is gone.
        }
      }
    });
    const ackLoops = recipients.map(async (recipient) => {
      while (!killed) {
        try {
          const inbox = await mustCall(
            base,
            "GET",
            `/v1/teams/${teamRef}/sessions/${recipient}/messages?limit=200`,
            owner,
          );
          const ids = (inbox.messages as { message_id: string }[])
            .map((m) => m.message_id)
            .slice(0, 7);
          if (ids.length === 0) {
            await new Promise((r) => setTimeout(r, 5));
            continue;
          }
          for (const id of ids) ackAttempted.add(id);
          const acked = await mustCall(
            base,
            "POST",
            `/v1/teams/${teamRef}/sessions/${recipient}/ack`,
            owner,
            {
              message_ids: ids,
            },
          );
          for (const id of acked.acked as string[]) ackConfirmed.add(id);
        } catch {
          return;
        }
      }
    });
    await Promise.all([...sendAll, ...ackLoops]);
    kill();
    await exited(server.child);
    expect(accepted.size).toBeGreaterThanOrEqual(KILL_AFTER_ACCEPTED);
    expect(ackConfirmed.size).toBeGreaterThan(0);

    // Nothing half-written: the file is consistent as SQLite sees it.
    const db = new Database(dataFile);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(db.pragma("foreign_key_check")).toEqual([]);
    db.close();

    server = await startServerProcess(dataFile);
    const after = new Map<string, unknown>();
    for (const recipient of recipients) {
      const inbox = await mustCall(
        server.url,
        "GET",
        `/v1/teams/${teamRef}/sessions/${recipient}/messages?limit=200`,
        owner,
      );
      for (const message of inbox.messages as { message_id: string }[]) {
        after.set(message.message_id, message);
        expect(validateMessageEnvelope(message).ok).toBe(true);
      }
    }
    // Every send answered `accepted` is still there unless an ack for it may have committed.
    const lost = [...accepted].filter((id) => !after.has(id) && !ackAttempted.has(id));
    expect(lost).toEqual([]);
    // No acknowledged message is ever delivered again.
    const resurrected = [...ackConfirmed].filter((id) => after.has(id));
    expect(resurrected).toEqual([]);
  }, 60_000);
});
