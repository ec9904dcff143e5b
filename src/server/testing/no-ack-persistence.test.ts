import { afterEach, describe, expect, test } from "vitest";
import type { BrigadeService, ServiceDeps, Store } from "../../service/index.ts";
import { type MutantWorld, mutantWorld } from "./mutant-world.ts";
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

/** C-30/C-36's scenario: A sends to B, A acks (not the recipient), B acks twice, then B reads. */
async function ackScenario(w: MutantWorld) {
  const { message_id: id } = await w.service.sendMessage(w.a, w.t1, {
    sender_session_id: w.sa,
    recipient_session_id: w.sb,
    body: "hello",
  });
  const wrong = await w.service.ackMessages(w.a, w.t1, w.sa, { message_ids: [id] });
  const right = await w.service.ackMessages(w.b, w.t1, w.sb, { message_ids: [id, "m-none"] });
  const again = await w.service.ackMessages(w.b, w.t1, w.sb, { message_ids: [id] });
  const received = (await w.service.receiveMessages(w.b, w.t1, w.sb)).messages.map(
    (m) => m.message_id,
  );
  const refetched = await w.service.fetchMessages(w.b, w.t1, w.sb, [id]);
  return { id, wrong, right, again, received, refetched: refetched.map((m) => m.message_id) };
}

describe("mutant no_ack_persistence", () => {
  test("ack answers exactly as the real service", async () => {
    const mutant = await ackScenario(await world(mutantServiceFactory("no_ack_persistence")));
    expect(mutant.wrong).toEqual({ acked: [], unknown: [mutant.id] });
    expect(mutant.right).toEqual({ acked: [mutant.id], unknown: ["m-none"] });
    expect(mutant.again).toEqual({ acked: [mutant.id], unknown: [] });
  });

  test("but persists nothing: receive and a new watch's fetch still return the acked message", async () => {
    const mutant = await ackScenario(await world(mutantServiceFactory("no_ack_persistence")));
    expect(mutant.received).toEqual([mutant.id]);
    expect(mutant.refetched).toEqual([mutant.id]);
  });

  test("positive control: the real service forgets the acked message", async () => {
    const real = await ackScenario(await world());
    expect(real.right).toEqual({ acked: [real.id], unknown: ["m-none"] });
    expect(real.received).toEqual([]);
    expect(real.refetched).toEqual([]);
  });
});
