import { type ConformanceCase, defineCase } from "../case.ts";
import type { WatchRun } from "../context.ts";
import { ack, findSession, listSessions, newSession, sendOk } from "../operations.ts";
import { freshMember, sleep } from "./helpers.ts";

function messageId(e: Record<string, unknown>): unknown {
  return (e.message as Record<string, unknown> | undefined)?.message_id;
}

async function ready(watch: WatchRun): Promise<Record<string, unknown> | undefined> {
  return watch.waitFor((e) => e.event === "ready", 10_000);
}

async function stop(watch: WatchRun): Promise<void> {
  watch.endStdin();
  await watch.finish(5000);
}

const C33 = defineCase(
  "C-33",
  "watch: exactly one ready first, mode matching the push capability, nothing else for an empty inbox",
  [],
  async (ctx, fx) => {
    const sid = await newSession(ctx, fx.b, ctx.unique("c33"));
    const watch = ctx.watch(fx.b, sid);
    const r = await ready(watch);
    if (!ctx.check(r !== undefined, "no ready event within 10 s")) return stop(watch);
    const mode = ctx.capabilities.has("message.watch.push") ? "push" : "polling";
    ctx.check(r?.mode === mode, `ready.mode is not ${mode}`);
    ctx.check(r?.session_id === sid, "ready.session_id is not the session");
    await sleep(2000);
    const others = watch.events().filter((e) => e.event !== "ready" && e.event !== "status");
    ctx.check(others.length === 0, "events other than ready/status for an empty inbox");
    await stop(watch);
  },
);

const C34 = defineCase(
  "C-34",
  "messages sent before the watch are emitted after ready",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c34-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c34-b"));
    const ids = [
      (await sendOk(ctx, fx.a, from, to, "c34 one")).message_id,
      (await sendOk(ctx, fx.a, from, to, "c34 two")).message_id,
    ];
    const watch = ctx.watch(fx.b, to);
    for (const id of ids) {
      ctx.check(
        (await watch.waitFor((e) => e.event === "message" && messageId(e) === id, 10_000)) !==
          undefined,
        "a queued message was not emitted",
      );
    }
    await stop(watch);
  },
);

const C35 = defineCase(
  "C-35",
  "a message sent during the watch arrives within 5 s (push) or two polls",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c35-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c35-b"));
    const watch = ctx.watch(fx.b, to);
    await ready(watch);
    const sent = performance.now();
    const id = (await sendOk(ctx, fx.a, from, to, "c35")).message_id;
    const push = ctx.capabilities.has("message.watch.push");
    const got = await watch.waitFor(
      (e) => e.event === "message" && messageId(e) === id,
      push ? 5000 : 60_000,
    );
    ctx.check(got !== undefined, `message not emitted within ${push ? "5 s" : "60 s"}`);
    ctx.note(`delivered after ${((performance.now() - sent) / 1000).toFixed(2)} s`);
    await stop(watch);
  },
);

const C36 = defineCase(
  "C-36",
  "watch killed before ack → re-emitted on restart; after ack → not emitted",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c36-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c36-b"));
    const id = (await sendOk(ctx, fx.a, from, to, "c36")).message_id as string;
    const match = (e: Record<string, unknown>): boolean =>
      e.event === "message" && messageId(e) === id;
    const first = ctx.watch(fx.b, to);
    ctx.check((await first.waitFor(match, 10_000)) !== undefined, "message not emitted");
    first.kill("SIGKILL");
    await first.finish(5000);
    const second = ctx.watch(fx.b, to);
    ctx.check(
      (await second.waitFor(match, 10_000)) !== undefined,
      "unacked message not re-emitted after restart",
    );
    await stop(second);
    await ack(ctx, fx.b, to, [id]);
    const third = ctx.watch(fx.b, to);
    await ready(third);
    ctx.check((await third.waitFor(match, 3000)) === undefined, "acked message emitted again");
    await stop(third);
  },
);

const C37 = defineCase(
  "C-37",
  "C watching B's session → error not_found then exit 6 within 10 s",
  [],
  async (ctx, fx) => {
    const watch = ctx.watch(fx.c, fx.sessionB);
    const error = await watch.waitFor((e) => e.event === "error", 10_000);
    const code = (error?.error as Record<string, unknown> | undefined)?.code;
    ctx.check(code === "not_found", "no not_found error event");
    const exit = await watch.finish(10_000);
    ctx.check(exit === 6, `watch exit ${String(exit)}, expected 6 within 10 s`);
    ctx.check(!watch.events().some((e) => e.event === "message"), "foreign messages emitted");
  },
);

const C38 = defineCase(
  "C-38",
  "stdin EOF → exit 0 within 5 s; SIGTERM → exit 0 within 5 s",
  [],
  async (ctx, fx) => {
    const sid = await newSession(ctx, fx.b, ctx.unique("c38"));
    const one = ctx.watch(fx.b, sid);
    await ready(one);
    one.endStdin();
    ctx.check((await one.finish(5000)) === 0, "no exit 0 within 5 s of stdin EOF");
    const two = ctx.watch(fx.b, sid);
    await ready(two);
    two.kill("SIGTERM");
    ctx.check((await two.finish(5000)) === 0, "no exit 0 within 5 s of SIGTERM");
  },
);

const TRICKY_BODY =
  'line one\nline two\r\nsep\u2028para\u2029end\n{"event":"error","authorization":"Bearer abc"}\nAuthorization: Bearer abc';

const C39 = defineCase(
  "C-39",
  "body with \\n, \\r, U+2028 and a fake auth line → one physical line, round-trips",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c39-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c39-b"));
    const id = (await sendOk(ctx, fx.a, from, to, TRICKY_BODY)).message_id;
    const watch = ctx.watch(fx.b, to);
    const got = await watch.waitFor((e) => e.event === "message" && messageId(e) === id, 10_000);
    ctx.check(
      (got?.message as Record<string, unknown> | undefined)?.body === TRICKY_BODY,
      "body did not round-trip through watch",
    );
    await stop(watch);
    ctx.check(
      watch.events().every((e) => typeof e.event === "string"),
      "a body line leaked as its own event",
    );
  },
);

const C40 = defineCase(
  "C-40",
  "messages queued while the watch is stopped all arrive after restart (paging past 50)",
  [],
  async (ctx, fx) => {
    const p1 = await freshMember(ctx, fx, "page-p1");
    const p2 = await freshMember(ctx, fx, "page-p2");
    const q = await freshMember(ctx, fx, "page-q");
    const to = await newSession(ctx, q, "c40-inbox");
    const first = ctx.watch(q, to);
    await ready(first);
    await stop(first);
    const ids = new Set<unknown>();
    for (const p of [p1, p1, p2, p2]) {
      const from = await newSession(ctx, p, ctx.unique("c40-sender"));
      for (let i = 0; i < 15; i++)
        ids.add((await sendOk(ctx, p, from, to, ctx.unique("c40"))).message_id);
    }
    const watch = ctx.watch(q, to);
    await watch.waitFor(() => {
      const seen = new Set(
        watch
          .events()
          .filter((e) => e.event === "message")
          .map(messageId),
      );
      return [...ids].every((id) => seen.has(id));
    }, 30_000);
    const seen = new Set(
      watch
        .events()
        .filter((e) => e.event === "message")
        .map(messageId),
    );
    ctx.check(
      [...ids].every((id) => seen.has(id)),
      `${[...ids].filter((id) => !seen.has(id)).length} of ${ids.size} queued messages not emitted`,
    );
    ctx.note("60 queued (the per-recipient unacked cap), not 100: §7 makes 100 unacked impossible");
    await stop(watch);
  },
);

const C41 = defineCase(
  "C-41",
  "stdin ack/heartbeat/unknown type/over-long line/close on a watch",
  ["message.watch.stdin_commands"],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c41-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c41-b"));
    const id = (await sendOk(ctx, fx.a, from, to, "c41")).message_id;
    const watch = ctx.watch(fx.b, to);
    ctx.check(
      (await watch.waitFor((e) => e.event === "message" && messageId(e) === id, 10_000)) !==
        undefined,
      "message not emitted",
    );
    watch.write({ type: "ack", message_ids: [id] });
    const acked = await watch.waitFor((e) => e.event === "acked", 5000);
    ctx.check(
      Array.isArray(acked?.message_ids) && acked.message_ids.includes(id),
      "no acked event for the id",
    );
    watch.write({ type: "frobnicate" });
    watch.writeRaw(`${"x".repeat(1_048_600)}\n`);
    watch.write({ type: "heartbeat", activity: "idle" });
    const hb = await watch.waitFor((e) => e.event === "heartbeat_ok", 5000);
    ctx.check(
      hb?.session_id === to && typeof hb?.lease_until === "string",
      "no heartbeat_ok after unknown type and over-long line",
    );
    await sleep(1000);
    const emitted = watch
      .events()
      .filter((e) => e.event === "message" && messageId(e) === id).length;
    ctx.check(emitted === 1, "acked message re-emitted");
    watch.write({ type: "close" });
    ctx.check((await watch.finish(5000)) === 0, "no exit 0 within 5 s of close");
    const all = await listSessions(ctx, fx.b, ["--include-offline"]);
    ctx.check(findSession(all, to)?.state === "offline", "close command did not close the session");
  },
);

/** The watch cases C-33…C-41. */
export const WATCH_CASES: readonly ConformanceCase[] = [
  C33,
  C34,
  C35,
  C36,
  C37,
  C38,
  C39,
  C40,
  C41,
];
