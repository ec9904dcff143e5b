import { afterEach, describe, expect, test } from "vitest";
import type { BrigadeService, MessageRow, ServiceDeps, Store } from "../../service/index.ts";
import { type MutantWorld, mutantWorld, rejection } from "./mutant-world.ts";
import { mutantServiceFactory } from "./server-mutants.ts";
import { applyClaims, splitClaims } from "./trusted-sender.ts";

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

const trusting = () => world(mutantServiceFactory("trusted_sender"));

const row: MessageRow = {
  message_id: "m-1",
  team_ref: "t-1",
  sender_principal_ref: "p-1",
  sender_session_id: "s-1",
  sender_session_name: "one",
  sender_human_label: "ann",
  recipient_session_id: "s-2",
  summary: null,
  body: "b",
  reply_to: null,
  hop_count: 0,
  created_at: 5,
  acked_at: null,
  idempotency_key: null,
};

describe("splitClaims / applyClaims", () => {
  test("the forbidden members move to the claims; the rest is the request", () => {
    expect(splitClaims({ body: "x", hop_count: 3, sender: null })).toEqual({
      request: { body: "x" },
      claims: { sender: null, hop_count: 3 },
    });
    expect(splitClaims("text")).toEqual({ request: "text", claims: {} });
  });

  test("well-typed claims are honoured, others ignored", () => {
    expect(
      applyClaims(row, {
        sender: { principal_ref: "p-x", session_id: "s-x", session_name: "x" },
        human_label: null,
        team_ref: "t-x",
        created_at: "2026-01-01T00:00:00Z",
        hop_count: 7,
      }),
    ).toEqual({
      ...row,
      sender_principal_ref: "p-x",
      sender_session_id: "s-x",
      sender_session_name: "x",
      sender_human_label: null,
      team_ref: "t-x",
      created_at: Date.parse("2026-01-01T00:00:00Z"),
      hop_count: 7,
    });
    expect(applyClaims(row, { hop_count: null, created_at: "soon", principal_ref: 1 })).toEqual(
      row,
    );
  });
});

describe("mutant trusted_sender (server half)", () => {
  test("forbidden members are accepted and stamped into the message (C-23)", async () => {
    const w = await trusting();
    const send = {
      sender_session_id: w.sa,
      recipient_session_id: w.sb,
      body: "forged",
      human_label: "the boss",
      hop_count: 9,
    };
    const r = await w.service.sendMessage(w.a, w.t1, send);
    expect(r.duplicate).toBe(false);
    const [m] = (await w.service.receiveMessages(w.b, w.t1, w.sb)).messages;
    expect(m?.message_id).toBe(r.message_id);
    expect(m?.sender.human_label).toBe("the boss");
    expect(m?.hop_count).toBe(9);
  });

  test("a member may send as another member's session of the team (C-24)", async () => {
    const w = await trusting();
    const r = await w.service.sendMessage(w.b, w.t1, {
      sender_session_id: w.sa,
      recipient_session_id: w.sb,
      body: "as A",
    });
    const [m] = (await w.service.receiveMessages(w.b, w.t1, w.sb)).messages;
    expect(m?.message_id).toBe(r.message_id);
    expect(m?.sender.session_id).toBe(w.sa);
  });

  test("the other send checks stay: unknown sender, foreign recipient, non-member, closed sender", async () => {
    const w = await trusting();
    const send = (p: string, team: string, from: string, to: string) =>
      rejection(
        w.service.sendMessage(p, team, {
          sender_session_id: from,
          recipient_session_id: to,
          body: "x",
        }),
      );
    expect((await send(w.b, w.t1, "s-none", w.sb)).code).toBe("not_found");
    expect((await send(w.c, w.t2, w.sc, w.sb)).code).toBe("not_found");
    expect((await send(w.c, w.t2, w.sa, w.sc)).code).toBe("not_found");
    expect((await send(w.c, w.t1, w.sa, w.sb)).code).toBe("unauthorized");
    await w.service.closeSession(w.a, w.t1, w.sa);
    expect((await send(w.b, w.t1, w.sa, w.sb)).code).toBe("conflict");
  });

  test("positive control: the real service refuses both", async () => {
    const w = await world();
    const forged = await rejection(
      w.service.sendMessage(w.a, w.t1, {
        sender_session_id: w.sa,
        recipient_session_id: w.sb,
        body: "x",
        hop_count: 9,
      } as never),
    );
    expect(forged.details).toEqual({ field: "hop_count", reason: "forbidden_member" });
    const notOwned = await rejection(
      w.service.sendMessage(w.b, w.t1, {
        sender_session_id: w.sa,
        recipient_session_id: w.sb,
        body: "x",
      }),
    );
    expect(notOwned.code).toBe("not_found");
  });
});
