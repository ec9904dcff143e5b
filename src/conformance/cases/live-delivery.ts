import { type ConformanceCase, defineCase, type Fixture } from "../case.ts";
import type { SuiteContext } from "../context.ts";
import { findSession, listSessions, newSession } from "../operations.ts";
import { expectInvalid, sleep } from "./helpers.ts";

/** The live-delivery members a listed session reports, as one comparable string. */
async function listedLive(ctx: SuiteContext, fx: Fixture, id: string): Promise<string> {
  const s = findSession(await listSessions(ctx, fx.a), id);
  return `${String(s?.live_delivery)}/${String(s?.live_delivery_reason)}`;
}

const C53 = defineCase(
  "C-53",
  "live_delivery registered and changed by heartbeat shows in session list; bad values → 3, nothing changed",
  ["session.live_delivery"],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c53"), {
      live_delivery: "no",
      live_delivery_reason: "no_inbox_socket",
    });
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/no_inbox_socket",
      "registered live_delivery not listed",
    );
    const beat = (stdin: Record<string, unknown>) =>
      ctx.call(fx.a, ["session", "heartbeat", "--session", id], { stdin });
    ctx.ok(await beat({ live_delivery: "yes" }), "heartbeat");
    ctx.check((await listedLive(ctx, fx, id)) === "yes/undefined", "heartbeat yes not listed");
    ctx.ok(await beat({ live_delivery: "no", live_delivery_reason: "inbound_gate" }), "heartbeat");
    ctx.check((await listedLive(ctx, fx, id)) === "no/inbound_gate", "heartbeat reason not listed");
    ctx.ok(await beat({}), "heartbeat");
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/inbound_gate",
      "absent live_delivery changed it",
    );
    expectInvalid(
      ctx,
      await beat({ live_delivery: true }),
      "live_delivery",
      "boolean live_delivery",
    );
    expectInvalid(ctx, await beat({ live_delivery: "maybe" }), "live_delivery", "unknown value");
    expectInvalid(ctx, await beat({ live_delivery: "no" }), "live_delivery_reason", "no reason");
    expectInvalid(
      ctx,
      await beat({ live_delivery: "no", live_delivery_reason: "r".repeat(4096) }),
      "live_delivery_reason",
      "unknown reason",
    );
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/inbound_gate",
      "a refused heartbeat changed live_delivery",
    );
  },
);

const C54 = defineCase(
  "C-54",
  "a live_delivery yes not said again for 5/6 of the lease lists as no/watcher_silent while the session is online; a heartbeat without it does not renew it; a no keeps its reason; yes again clears it",
  ["session.live_delivery"],
  async (ctx, fx) => {
    const lease = fx.lease.min;
    const id = await newSession(ctx, fx.a, ctx.unique("c54"), {
      lease_seconds: lease,
      live_delivery: "yes",
    });
    const stopped = await newSession(ctx, fx.a, ctx.unique("c54s"), {
      lease_seconds: lease,
      live_delivery: "no",
      live_delivery_reason: "watcher_stopped",
    });
    ctx.check((await listedLive(ctx, fx, id)) === "yes/undefined", "registered yes not listed");
    const beat = (session: string, stdin: Record<string, unknown>) =>
      ctx.call(fx.a, ["session", "heartbeat", "--session", session], { stdin });
    await sleep((lease * 1000) / 2);
    // Both leases are renewed; neither report is.
    ctx.ok(await beat(id, {}), "heartbeat");
    ctx.ok(await beat(stopped, {}), "heartbeat");
    await sleep((lease * 5000) / 6 - (lease * 1000) / 2 + 2000);
    const listed = findSession(await listSessions(ctx, fx.a), id);
    ctx.check(listed?.state !== "offline" && listed !== undefined, "renewed session not online");
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/watcher_silent",
      "a yes not said again for 5/6 of the lease is not listed as watcher_silent",
    );
    ctx.check(
      (await listedLive(ctx, fx, stopped)) === "no/watcher_stopped",
      "an old no lost its reason",
    );
    ctx.ok(await beat(id, { live_delivery: "yes" }), "heartbeat");
    ctx.check((await listedLive(ctx, fx, id)) === "yes/undefined", "yes again not listed");
  },
  true,
);

/**
 * Our live-delivery cases (capability `session.live_delivery`): C-53, and the slow C-54 (a `yes`
 * not said again ages into `watcher_silent`).
 */
const C88 = defineCase(
  "C-88",
  "the lane reasons: live_delivery no/pull_lane at registration and no/person_review by heartbeat are listed; an empty heartbeat keeps the reason",
  ["session.live_delivery"],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c88"), {
      live_delivery: "no",
      live_delivery_reason: "pull_lane",
    });
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/pull_lane",
      "registered pull_lane not listed",
    );
    const beat = (stdin: Record<string, unknown>) =>
      ctx.call(fx.a, ["session", "heartbeat", "--session", id], { stdin });
    ctx.ok(await beat({ live_delivery: "no", live_delivery_reason: "person_review" }), "heartbeat");
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/person_review",
      "heartbeat person_review not listed",
    );
    ctx.ok(await beat({ activity: "busy" }), "heartbeat");
    ctx.check(
      (await listedLive(ctx, fx, id)) === "no/person_review",
      "a heartbeat without live_delivery changed the lane",
    );
  },
);

const C89 = defineCase(
  "C-89",
  "a push lane taking over a pull-lane session: a heartbeat yes after no/pull_lane lists yes without a reason, and no/pull_lane again lists it again",
  ["session.live_delivery"],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c89"), {});
    const beat = (stdin: Record<string, unknown>) =>
      ctx.call(fx.a, ["session", "heartbeat", "--session", id], { stdin });
    ctx.ok(await beat({ live_delivery: "no", live_delivery_reason: "pull_lane" }), "heartbeat");
    ctx.check((await listedLive(ctx, fx, id)) === "no/pull_lane", "pull_lane not listed");
    ctx.ok(await beat({ live_delivery: "yes", live_delivery_reason: "pull_lane" }), "heartbeat");
    ctx.check((await listedLive(ctx, fx, id)) === "yes/undefined", "yes kept a reason");
    ctx.ok(await beat({ live_delivery: "no", live_delivery_reason: "pull_lane" }), "heartbeat");
    ctx.check((await listedLive(ctx, fx, id)) === "no/pull_lane", "pull_lane again not listed");
  },
);

export const LIVE_DELIVERY_CASES: readonly ConformanceCase[] = [C53, C54, C88, C89];
