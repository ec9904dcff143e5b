import { afterEach, describe, expect, test } from "vitest";
import type { BrigadeService, ServiceDeps, Store } from "../../service/index.ts";
import { mutantWorld } from "./mutant-world.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Factory = ((store: Store, deps: ServiceDeps) => BrigadeService) | undefined;

/** What C-90 and C-93 observe of one person's message, and of a session's. */
async function observed(factory: Factory) {
  const w = await mutantWorld(factory);
  closers.push(() => w.store.close());
  await w.service.personSend(w.a, w.t1, { recipient_session_id: w.sb, body: "as a person" });
  await w.service.sendMessage(w.a, w.t1, {
    sender_session_id: w.sa,
    recipient_session_id: w.sb,
    body: "from a session",
  });
  const got = (await w.service.receiveMessages(w.b, w.t1, w.sb, 10)).messages;
  const listed = (await w.service.personSent(w.a, w.t1, 10)).messages;
  return {
    kinds: got.map((m) => [m.body, m.sender.kind]),
    senders: listed.map((m) => m.sender).sort(),
  };
}

describe("mutant person_unmarked", () => {
  test("a person's message loses its mark; a session's is untouched", async () => {
    expect(await observed(undefined)).toEqual({
      kinds: [
        ["as a person", "person"],
        ["from a session", undefined],
      ],
      senders: ["person", "session"],
    });
    expect(await observed(mutantServiceFactory("person_unmarked"))).toEqual({
      kinds: [
        ["as a person", undefined],
        ["from a session", undefined],
      ],
      senders: ["session", "session"],
    });
  });
});
