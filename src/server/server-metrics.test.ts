import { describe, expect, test } from "vitest";
import type { FetchCommand, Store } from "../service/index.ts";
import { DEFAULT_SERVER_LIMITS, SERVER_LIMIT_NAMES } from "./server-limits.ts";
import { ServerMetrics } from "./server-metrics.ts";

describe("ServerMetrics.timed", () => {
  test("keeps the store's one-call fetch and ack, timed, and adds none a store lacks", async () => {
    const calls: FetchCommand[] = [];
    const store: Store = {
      transact: () => Promise.reject(new Error("the coarse fetch is the path")),
      fetchMessages: async (command) => {
        calls.push(command);
        return { ok: false, refusal: "not_found" };
      },
      ackMessages: async () => ({ ok: true, acked: ["m"], unknown: [] }),
      close: async () => {},
    };
    const metrics = new ServerMetrics("test", () => 0);
    const timed = metrics.timed(store);
    const command = { principalRef: "p", teamRef: "t", sessionId: "s", messageIds: ["m"] };
    expect(await timed.fetchMessages?.(command)).toEqual({ ok: false, refusal: "not_found" });
    expect(calls).toEqual([command]);
    const ack = { ...command, at: 1 };
    expect(await timed.ackMessages?.(ack)).toEqual({ ok: true, acked: ["m"], unknown: [] });
    expect((await metrics.render()).body).toMatch(/brigade_store_transaction_seconds_count 2\b/);
    const bare = metrics.timed({ transact: store.transact, close: store.close });
    expect(bare.fetchMessages).toBeUndefined();
    expect(bare.ackMessages).toBeUndefined();
    expect(bare.sendMessage).toBeUndefined();
  });
});

describe("brigade_limit", () => {
  test("one sample per settable limit, the value in force, labelled by its fixed name", async () => {
    const limits = { ...DEFAULT_SERVER_LIMITS, principals_per_server_per_hour: 100_000 };
    const body = (await new ServerMetrics("test", () => 0, limits).render()).body;
    for (const name of SERVER_LIMIT_NAMES) {
      expect(body).toContain(`brigade_limit{name="${name}"} ${limits[name]}\n`);
    }
    expect(body).toContain('brigade_limit{name="principals_per_server_per_hour"} 100000\n');
  });
});
