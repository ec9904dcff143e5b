import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { standInDoorPipeline } from "../../../test/support/stand-in-door-pipeline.ts";
import type { InboundItem, InboundMessage } from "../inbound/index.ts";
import {
  OPENCODE_MISSING_GIVE_UP_MS,
  OPENCODE_UNSURE_GRACE_MS,
  OpenCodeDoor,
} from "./opencode-door.ts";
import { OPENCODE_MESSAGE_ID, openCodeMessageIds } from "./opencode-message-id.ts";
import {
  listenerOwnedBy,
  type OpenCodeServer,
  openCodeServer,
  parseOpenCodeServerUrl,
} from "./opencode-server.ts";

const fixture = (name: string): string =>
  readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8");

const SESSION = "ses_dbbec417dffeyzP0nHeJNLyqgp";

/**
 * A loopback fake of OpenCode 1.18.33's v1 session endpoints, shaped by the recorded responses
 * (testdata/): `prompt_async` stores the text part under the posted `messageID` (a second post of
 * the same id appends a part, as OpenCode does) and answers 204; `GET …/message/{id}` answers the
 * stored message or the recorded 404. `mode` drops or stalls posts.
 */
class FakeOpenCode {
  readonly messages = new Map<string, string[]>();
  readonly posts: { path: string; body: unknown; auth: string | undefined }[] = [];
  mode: "store" | "drop" | "stall" | "gone" = "store";
  #server: Server | undefined;
  origin = "";

  async start(): Promise<void> {
    this.#server = createServer((req, res) => this.#handle(req, res));
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const url = req.url ?? "";
      const post = /^\/session\/(ses_\w+)\/prompt_async$/.exec(url);
      if (req.method === "POST" && post) {
        const body = JSON.parse(raw) as { messageID: string; parts: { text: string }[] };
        this.posts.push({ path: url, body, auth: req.headers.authorization });
        if (this.mode === "stall") return;
        if (this.mode === "gone" || post[1] !== SESSION) {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(`{"name":"NotFoundError","data":{"message":"Session not found"}}`);
          return;
        }
        if (this.mode === "store") {
          const parts = this.messages.get(body.messageID) ?? [];
          parts.push(...body.parts.map((p) => p.text));
          this.messages.set(body.messageID, parts);
        }
        res.writeHead(204).end();
        return;
      }
      const get = /^\/session\/(ses_\w+)\/message\/(msg_\w+)$/.exec(url);
      if (req.method === "GET" && get) {
        const texts = this.messages.get(get[2] ?? "");
        if (texts === undefined) {
          res.writeHead(404, { "content-type": "application/json" });
          res.end(fixture("message-not-found.json"));
          return;
        }
        const recorded = JSON.parse(fixture("stored-user-message.json")) as {
          info: { id: string };
          parts: { messageID: string; text: string }[];
        };
        recorded.info.id = get[2] ?? "";
        const part = recorded.parts[0];
        recorded.parts = texts.map((text) => ({ ...part, messageID: get[2] ?? "", text })) as never;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(recorded));
        return;
      }
      res.writeHead(404).end();
    });
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

const message = (id: string): InboundItem => ({
  kind: "message",
  message: { message_id: id, sender: { session_id: "s-dana" } } as InboundMessage,
  frame: `<brigade-message message-id="${id}">\nrun <the> & backfill\n</brigade-message>`,
  text: `wrap ${id}`,
});

let fake: FakeOpenCode;

afterEach(async () => {
  await fake?.close();
});

/** A door over a queue of items, on the fake (or `server`), with a clock the test moves. */
async function setup(items: InboundItem[], server?: OpenCodeServer) {
  fake = new FakeOpenCode();
  await fake.start();
  const queue = [...items];
  const { pipeline, done } = standInDoorPipeline(queue);
  const acks: string[] = [];
  const depths: number[] = [];
  const clock = { now: 1_796_438_000_000 };
  /** What `settleFiles` answers; `ready` also turns the files head into its message. */
  const settle: { next: "none" | "ready" | "failed" } = { next: "none" };
  const door = new OpenCodeDoor({
    sessionId: SESSION,
    server: server ?? openCodeServer({ origin: fake.origin }),
    context: {
      settleFiles: async () => {
        const head = queue[0];
        if (settle.next === "ready" && head?.kind === "files") {
          queue[0] = message(head.message.message_id);
        }
        return settle.next;
      },
      pipeline,
      pacer: {
        nextPostAt: (now) => now,
        record: () => {},
        observeClaudeQueue: (_now, depth) => void depths.push(depth),
      },
      textOf: (item) => `<!-- lsp:agent-message-v1 {} -->\n${item.frame}`,
      report: () => {
        throw new Error("OpenCode holds nothing: nothing is reported held or refused");
      },
      ack: (id) => void acks.push(id),
      log: () => {},
      now: () => clock.now,
    },
  });
  return { door, done, acks, depths, clock, queue, settle };
}

describe("OpenCodeDoor against the recorded protocol", () => {
  test("server order, the sentinel + frame as one text part under an id of OpenCode's shape; acked only once read back", async () => {
    const w = await setup([message("m-1"), message("m-2")]);
    expect(await w.door.step()).toBe("posted");
    expect(await w.door.step()).toBe("posted");
    expect(await w.door.step()).toBe("nothing");
    expect(w.acks).toEqual([]);
    expect(w.door.outstanding).toBe(2);
    const bodies = fake.posts.map((p) => p.body as { messageID: string; parts: unknown[] });
    expect(fake.posts.map((p) => p.path)).toEqual([
      `/session/${SESSION}/prompt_async`,
      `/session/${SESSION}/prompt_async`,
    ]);
    expect(bodies[0]?.parts).toEqual([
      {
        type: "text",
        text: '<!-- lsp:agent-message-v1 {} -->\n<brigade-message message-id="m-1">\nrun <the> & backfill\n</brigade-message>',
      },
    ]);
    for (const b of bodies) expect(b.messageID).toMatch(OPENCODE_MESSAGE_ID);
    expect((bodies[0]?.messageID ?? "") < (bodies[1]?.messageID ?? "")).toBe(true);
    await w.door.confirm();
    expect(w.acks).toEqual(["m-1", "m-2"]);
    expect(w.done).toEqual(["m-1", "m-2"]);
    expect(w.door.outstanding).toBe(0);
    expect(w.depths.at(-1)).toBe(0);
  });

  test("a post OpenCode answered but did not store is never acked, and given back only after the give-up time", async () => {
    const w = await setup([message("m-1")]);
    fake.mode = "drop";
    expect(await w.door.step()).toBe("posted");
    await w.door.confirm();
    expect(w.acks).toEqual([]);
    expect(w.done).toEqual([]);
    w.clock.now += OPENCODE_MISSING_GIVE_UP_MS - 1;
    await w.door.confirm();
    expect(w.done).toEqual([]);
    w.clock.now += 1;
    await w.door.confirm();
    expect(w.done).toEqual(["m-1:opencode_missing"]);
    expect(w.acks).toEqual([]);
    expect(fake.posts).toHaveLength(1);
  });

  test("a post without an answer is settled by reading its id back, never by posting it again", async () => {
    const server = (): OpenCodeServer => {
      const real = openCodeServer({ origin: fake.origin });
      return {
        // The request reaches OpenCode and is stored, but the answer is lost.
        post: async (s, id, text) => {
          await real.post(s, id, text);
          return { ok: false, reason: "opencode_unreachable", sure: false };
        },
        message: (s, id) => real.message(s, id),
      };
    };
    const w = await setup([message("m-1"), message("m-2")], {
      post: (...a) => server().post(...a),
      message: (...a) => server().message(...a),
    });
    expect(await w.door.step()).toBe("failed");
    expect(w.door.outstanding).toBe(1);
    // Nothing goes out behind a post whose fate is unknown.
    expect(await w.door.step()).toBe("paced");
    expect(fake.posts).toHaveLength(1);
    await w.door.confirm();
    expect(w.acks).toEqual(["m-1"]);
    expect(fake.posts).toHaveLength(1);
    // Stored nowhere and unanswered: given back after the grace, never re-posted by the door.
    fake.mode = "drop";
    expect(await w.door.step()).toBe("failed");
    w.clock.now += OPENCODE_UNSURE_GRACE_MS - 1;
    await w.door.confirm();
    expect(w.done).toEqual(["m-1"]);
    w.clock.now += 1;
    await w.door.confirm();
    expect(w.done).toEqual(["m-1", "m-2:opencode_unreachable"]);
    expect(w.acks).toEqual(["m-1"]);
    expect(fake.posts).toHaveLength(2);
  });

  test("a session OpenCode no longer has: the message goes back unacked and the door posts nothing more", async () => {
    const w = await setup([message("m-1"), message("m-2")]);
    fake.mode = "gone";
    expect(await w.door.step()).toBe("failed");
    expect(w.done).toEqual(["m-1:opencode_session_gone"]);
    expect(await w.door.step()).toBe("nothing");
    expect(fake.posts).toHaveLength(1);
    expect(w.acks).toEqual([]);
  });

  test("another message under our id is not ours: given back unacked", async () => {
    const w = await setup([message("m-1")]);
    expect(await w.door.step()).toBe("posted");
    const id = (fake.posts[0]?.body as { messageID: string } | undefined)?.messageID ?? "";
    fake.messages.set(id, ["someone else's text"]);
    await w.door.confirm();
    expect(w.done).toEqual(["m-1:opencode_mismatch"]);
    expect(w.acks).toEqual([]);
  });

  test("a notice is posted as a message of its own and done at once", async () => {
    const w = await setup([
      { kind: "notice", notice: "drop", text: "Brigade: 3 messages dropped" },
    ]);
    expect(await w.door.step()).toBe("posted");
    expect(w.done).toEqual(["drop"]);
    expect((fake.posts[0]?.body as { parts: { text: string }[] } | undefined)?.parts[0]?.text).toBe(
      "Brigade: 3 messages dropped",
    );
    expect(w.door.outstanding).toBe(0);
  });

  test("a message with files is posted only once its files are received", async () => {
    const withFiles: InboundItem = {
      kind: "files",
      message: { message_id: "m-f" } as InboundMessage,
    };
    const w = await setup([withFiles]);
    w.settle.next = "none";
    expect(await w.door.step()).toBe("nothing");
    w.settle.next = "failed";
    expect(await w.door.step()).toBe("failed");
    expect(fake.posts).toHaveLength(0);
    // Received: the head is now the message itself.
    w.settle.next = "ready";
    expect(await w.door.step()).toBe("posted");
    expect(fake.posts).toHaveLength(1);
  });

  test("closed, the door posts nothing", async () => {
    const w = await setup([message("m-1")]);
    await w.door.close();
    expect(await w.door.step()).toBe("nothing");
    expect(fake.posts).toHaveLength(0);
  });
});

describe("openCodeServer", () => {
  test("basic authentication when the OpenCode process has a password; a bad id never reaches a path", async () => {
    fake = new FakeOpenCode();
    await fake.start();
    const server = openCodeServer({ origin: fake.origin, password: "pw" });
    const id = openCodeMessageIds(Date.now)();
    expect(await server.post(SESSION, id, "x")).toEqual({ ok: true });
    expect(fake.posts[0]?.auth).toBe(`Basic ${Buffer.from("opencode:pw").toString("base64")}`);
    expect(await server.post("ses_../x", id, "x")).toEqual({
      ok: false,
      reason: "opencode_refused",
      sure: true,
    });
    expect(await server.message(SESSION, "msg_../../x")).toEqual({ state: "unknown" });
    expect(fake.posts).toHaveLength(1);
    expect(await server.message(SESSION, id)).toEqual({
      state: "present",
      role: "user",
      texts: ["x"],
    });
    expect(await server.message(SESSION, openCodeMessageIds(Date.now)())).toEqual({
      state: "absent",
    });
    await fake.close();
    expect(await server.post(SESSION, id, "x")).toEqual({
      ok: false,
      reason: "opencode_unreachable",
      sure: false,
    });
    expect(await server.message(SESSION, id)).toEqual({ state: "unknown" });
  });

  test("server URLs: loopback http with a port only", () => {
    expect(parseOpenCodeServerUrl("http://127.0.0.1:4520/")).toBe("http://127.0.0.1:4520");
    expect(parseOpenCodeServerUrl("http://localhost:4096")).toBe("http://localhost:4096");
    expect(parseOpenCodeServerUrl("http://[::1]:9/")).toBe("http://[::1]:9");
    for (const bad of [
      "https://127.0.0.1:4520/",
      "http://10.0.0.2:4520/",
      "http://127.0.0.1/",
      "http://u:p@127.0.0.1:1/",
      "http://127.0.0.1:1/x",
      "http://127.0.0.1:1/?a",
      "not a url",
    ]) {
      expect(parseOpenCodeServerUrl(bad)).toBeUndefined();
    }
  });

  test("a listening port is trusted only for the process that holds it", async () => {
    fake = new FakeOpenCode();
    await fake.start();
    expect(listenerOwnedBy(fake.port, process.pid)).toBe(true);
    expect(listenerOwnedBy(fake.port, process.ppid)).toBe(false);
    await fake.close();
    expect(listenerOwnedBy(fake.port, process.pid)).toBe(false);
  });

  test("message ids ascend within one millisecond and keep OpenCode's shape", () => {
    const next = openCodeMessageIds(() => 1_796_438_285_196);
    const ids = Array.from({ length: 20 }, next);
    for (const id of ids) expect(id).toMatch(OPENCODE_MESSAGE_ID);
    expect([...ids].sort()).toEqual(ids);
    // The recorded id of a message OpenCode made in that millisecond shares the time stamp.
    expect(ids[0]?.slice(0, 16)).toBe("msg_24410db8c001");
  });
});
