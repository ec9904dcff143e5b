import { type ConformanceCase, defineCase, type Fixture } from "../case.ts";
import type { SuiteContext } from "../context.ts";
import { findSession, listSessions, newSession } from "../operations.ts";
import { expectInvalid } from "./helpers.ts";

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

/** Our live-delivery case C-53 (capability `session.live_delivery`). */
export const LIVE_DELIVERY_CASES: readonly ConformanceCase[] = [C53];
