import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { QwenPeerDoor } from "./qwen-door.ts";
import type { QwenTransition } from "./qwen-receipts.ts";
import type { QwenRecord } from "./qwen-registry.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A stand-in Qwen Code inbox: records every connection's lines and answers each user frame with
 * the receipt `answer` chooses, on a new connection to the frame's `from`, as the protocol says.
 */
async function fakeInbox(answer: (frame: Record<string, unknown>) => Record<string, unknown>[]) {
  const dir = mkdtempSync(join(tmpdir(), "qwen-inbox-"));
  const path = join(dir, "1.sock");
  const connections: string[][] = [];
  const server: Server = createServer((socket) => {
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("end", () => {
      const lines = text.trim().split("\n");
      connections.push(lines);
      socket.end();
      const frame = JSON.parse(lines.at(-1) ?? "{}") as Record<string, unknown>;
      const receipts = answer(frame);
      if (receipts.length === 0) return;
      const back = connect(String(frame.from), () => {
        const auth = JSON.stringify({ msgV: 1, type: "auth", token: frame.replyToken });
        back.end(`${[auth, ...receipts.map((r) => JSON.stringify(r))].join("\n")}\n`);
      });
      back.on("error", () => {});
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chmodSync(path, 0o600);
  cleanups.push(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });
  const record: QwenRecord = {
    pid: 1,
    procStart: "b:1",
    pidNs: 1,
    sessionId: "sess-1",
    cwd: "/w",
    ipcPath: path,
    ipcToken: "a".repeat(64),
  };
  return { record, connections };
}

function receipt(status: string, origMsgId: string, extra: Record<string, unknown> = {}) {
  return {
    msgV: 1,
    msgId: "r-1",
    type: "control",
    action: "delivery_status",
    status,
    origMsgId,
    ...extra,
  };
}

async function openDoor() {
  const seen: QwenTransition[] = [];
  const door = await QwenPeerDoor.open({ fromName: "brigade", onTransition: (t) => seen.push(t) });
  cleanups.push(() => door.close());
  return { door, seen };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
}

describe("QwenPeerDoor", () => {
  test("one connection per message: the auth line, then a user frame addressed to the record's session, without a review class", async () => {
    const inbox = await fakeInbox(() => []);
    const { door } = await openDoor();
    expect(
      await door.post(inbox.record, `qpc_${"b".repeat(64)}`, "m-1", "<brigade-message>x"),
    ).toEqual({ ok: true });
    expect(await door.post(inbox.record, undefined, "m-2", "second")).toEqual({ ok: true });
    expect(inbox.connections).toHaveLength(2);
    const [auth, frame] = inbox.connections[0] ?? [];
    expect(JSON.parse(auth ?? "")).toEqual({
      msgV: 1,
      type: "auth",
      token: `qpc_${"b".repeat(64)}`,
    });
    const parsed = JSON.parse(frame ?? "");
    expect(parsed).toMatchObject({
      msgV: 1,
      msgId: "m-1",
      type: "user",
      from: door.path,
      fromName: "brigade",
      toSessionId: "sess-1",
      message: { role: "user", content: "<brigade-message>x" },
    });
    expect(parsed).not.toHaveProperty("fromMode");
    expect(parsed.replyToken).toMatch(/^[0-9a-f]{64}$/);
    // Without a controller token the record's own token is presented.
    expect(JSON.parse(inbox.connections[1]?.[0] ?? "").token).toBe("a".repeat(64));
  });

  test("receipts move each message along the protocol's transitions; repeats, steps back and strangers' ids are ignored", async () => {
    const inbox = await fakeInbox((frame) => {
      const id = String(frame.msgId);
      if (id === "m-held")
        return [receipt("held", id), receipt("held", id), receipt("delivered", id)];
      if (id === "m-gone")
        return [receipt("delivered", id), receipt("held", id), receipt("expired", id)];
      return [
        receipt("dropped", id, {
          dropReason: "rate-limited",
          droppedMsgIds: ["m-earlier", "m-unknown"],
        }),
      ];
    });
    const { door, seen } = await openDoor();
    await door.post(inbox.record, undefined, "m-held", "one");
    await until(() => seen.length >= 2);
    await door.post(inbox.record, undefined, "m-gone", "two");
    await until(() => seen.length >= 4);
    await door.post(inbox.record, undefined, "m-earlier", "three");
    await door.post(inbox.record, undefined, "m-drop", "four");
    await until(() => seen.length >= 6);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([
      { msgId: "m-held", status: "held" },
      { msgId: "m-held", status: "delivered" },
      { msgId: "m-gone", status: "delivered" },
      { msgId: "m-gone", status: "expired" },
      { msgId: "m-earlier", status: "dropped", dropReason: "rate-limited" },
      { msgId: "m-drop", status: "dropped", dropReason: "rate-limited" },
    ]);
    expect(door.stage("m-held")).toBe("delivered");
  });

  test("a receipt connection without our token is dropped unread", async () => {
    const { door, seen } = await openDoor();
    const inbox = await fakeInbox(() => []);
    await door.post(inbox.record, undefined, "m-1", "one");
    await new Promise<void>((resolve) => {
      const s = connect(door.path, () => {
        s.end(
          `${JSON.stringify({ msgV: 1, type: "auth", token: "f".repeat(64) })}\n${JSON.stringify(receipt("delivered", "m-1"))}\n`,
        );
      });
      s.on("close", () => resolve());
      s.on("error", () => resolve());
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([]);
    expect(door.stage("m-1")).toBe("pending");
  });

  test("a receipt whose last line has no newline still counts once the sender half-closes", async () => {
    const inbox = await fakeInbox(() => []);
    const { door, seen } = await openDoor();
    await door.post(inbox.record, undefined, "m-1", "one");
    const token = JSON.parse(inbox.connections[0]?.[1] ?? "{}").replyToken as string;
    await new Promise<void>((resolve) => {
      const s = connect(door.path, () => {
        s.end(
          `${JSON.stringify({ msgV: 1, type: "auth", token })}\n${JSON.stringify(receipt("held", "m-1"))}`,
        );
      });
      s.on("close", () => resolve());
      s.on("error", () => resolve());
    });
    await until(() => seen.length >= 1);
    expect(seen).toEqual([{ msgId: "m-1", status: "held" }]);
  });

  test("a record without an inbox, a bad id, empty text or a socket not 0600 is never written; a dead socket is a failed post", async () => {
    const { door } = await openDoor();
    const inbox = await fakeInbox(() => []);
    const { ipcPath: _gone, ...noInbox } = inbox.record;
    expect(await door.post(noInbox, undefined, "m-1", "x")).toEqual({
      ok: false,
      reason: "no_inbox",
      connected: false,
    });
    expect(await door.post(inbox.record, undefined, "bad id", "x")).toMatchObject({
      ok: false,
      reason: "bad_input",
    });
    expect(await door.post(inbox.record, undefined, "m-1", "")).toMatchObject({
      ok: false,
      reason: "bad_input",
    });
    chmodSync(inbox.record.ipcPath ?? "", 0o666);
    expect(await door.post(inbox.record, `qpc_${"b".repeat(64)}`, "m-3", "x")).toEqual({
      ok: false,
      reason: "socket_refused",
      connected: false,
    });
    const dead = { ...inbox.record, ipcPath: join(tmpdir(), "no-such-qwen-inbox.sock") };
    expect(await door.post(dead, undefined, "m-2", "x")).toEqual({
      ok: false,
      reason: "connect_failed",
      connected: false,
    });
    expect(inbox.connections).toEqual([]);
  });
});
