import { afterEach, describe, expect, test } from "vitest";
import type { BrigadeService, ServiceDeps, Store } from "../../service/index.ts";
import { type MutantWorld, mutantWorld, registrationOf, rejection } from "./mutant-world.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const worlds: MutantWorld[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.store.close();
});

async function world(
  factory?: (store: Store, deps: ServiceDeps) => BrigadeService,
): Promise<MutantWorld> {
  const w = await mutantWorld(factory);
  worlds.push(w);
  return w;
}

async function session(w: MutantWorld, principal: string, name: string): Promise<string> {
  return (await w.service.registerSession(principal, w.t1, registrationOf(name))).session_id;
}

async function sendMany(w: MutantWorld, p: string, from: string, to: string, n: number) {
  for (let i = 0; i < n; i += 1) {
    await w.service.sendMessage(p, w.t1, {
      sender_session_id: from,
      recipient_session_id: to,
      body: `m${i}`,
    });
  }
}

/** C-28's cap checks: reasons for (pair and inbox at cap), (fresh sender, full inbox), (pair only). */
async function capReasons(w: MutantWorld): Promise<(string | undefined)[]> {
  const r = await session(w, w.b, "r");
  const r2 = await session(w, w.b, "r2");
  const senders = [
    [w.a, await session(w, w.a, "x1")],
    [w.a, await session(w, w.a, "x2")],
    [w.b, await session(w, w.b, "x3")],
    [w.b, await session(w, w.b, "x4")],
  ] as const;
  for (const [p, x] of senders) await sendMany(w, p, x, r, 15);
  const [p1, x1] = senders[0];
  const send = (p: string, from: string, to: string) =>
    rejection(
      w.service.sendMessage(p, w.t1, {
        sender_session_id: from,
        recipient_session_id: to,
        body: "x",
      }),
    );
  const both = await send(p1, x1, r);
  const fresh = await send(w.a, await session(w, w.a, "x5"), r);
  w.advance(61_000);
  const x6 = await session(w, w.a, "x6");
  await sendMany(w, w.a, x6, r2, 15);
  const pairOnly = await send(w.a, x6, r2);
  return [both, fresh, pairOnly].map((e) => e.details?.reason);
}

describe("mutant caps_swapped", () => {
  test("with both caps reached the inbox check fires first; alone, each cap fires as usual", async () => {
    const reasons = await capReasons(await world(mutantServiceFactory("caps_swapped")));
    expect(reasons).toEqual([
      "recipient_inbox_full",
      "recipient_inbox_full",
      "sender_quota_for_recipient",
    ]);
  });

  test("positive control: the real service checks the per-pair cap first (docs/spec/protocol.md §6.16 i)", async () => {
    const reasons = await capReasons(await world());
    expect(reasons).toEqual([
      "sender_quota_for_recipient",
      "recipient_inbox_full",
      "sender_quota_for_recipient",
    ]);
  });
});
