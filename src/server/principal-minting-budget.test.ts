import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/index.ts";
import { type BrigadeApp, createApp } from "./app.ts";
import {
  addressKey,
  PRINCIPALS_PER_ADDRESS_PER_HOUR,
  PRINCIPALS_PER_ADDRESS_PER_MINUTE,
  PRINCIPALS_PER_SERVER,
  PrincipalMintingBudget,
} from "./principal-minting-budget.ts";

let dir: string;
let store: SqliteStore;
let app: BrigadeApp;
const clock = { t: 1_000_000 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-mint-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
  clock.t = 1_000_000;
  app = createApp(new BrigadeService(store), {
    // Each test request names its client address in a header only this test reads.
    clientAddress: (c) => c.req.header("x-test-address") ?? "none",
    now: () => clock.t,
  });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function mint(address: string) {
  const response = await app.fetch(
    new Request("http://brigade.test/v1/principals", {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-address": address },
    }),
  );
  const json = (await response.json()) as {
    ok: boolean;
    error?: { code: string; message: string; retry_after_ms: number; details: { reason: string } };
  };
  return { status: response.status, retryAfter: response.headers.get("retry-after"), json };
}

describe("minting principals: per address and server-wide", () => {
  test("many addresses together stop at the server's per-minute budget, with a clear reason", async () => {
    for (let i = 0; i < PRINCIPALS_PER_SERVER.per_minute; i += 1) {
      expect((await mint(`10.0.${Math.floor(i / 20)}.${i % 20}`)).status).toBe(200);
    }
    const refused = await mint("192.0.2.1");
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({
      code: "rate_limited",
      message: "the server's budget for new principals is exhausted",
      details: { reason: "server_principal_budget" },
    });
    expect(refused.json.error?.retry_after_ms).toBe(60_000);
    expect(refused.retryAfter).toBe("60");
    clock.t += 60_000;
    expect((await mint("192.0.2.1")).status).toBe(200);
  });

  test("the hourly server budget holds even when each minute stays under its own", async () => {
    const budget = new PrincipalMintingBudget(() => clock.t);
    let minted = 0;
    while (minted < PRINCIPALS_PER_SERVER.per_hour) {
      for (let i = 0; i < PRINCIPALS_PER_SERVER.per_minute / 2; i += 1) {
        expect(budget.take(`a${minted}`)).toBeNull();
        minted += 1;
      }
      clock.t += 60_000;
    }
    expect(budget.take("fresh")).toMatchObject({ details: { reason: "server_principal_budget" } });
  });

  test("one address cannot spend the server's hourly budget: its own hour stops it first", async () => {
    const budget = new PrincipalMintingBudget(() => clock.t);
    let minted = 0;
    while (minted < PRINCIPALS_PER_ADDRESS_PER_HOUR) {
      for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE; i += 1) {
        expect(budget.take("198.51.100.9")).toBeNull();
        minted += 1;
      }
      clock.t += 60_000;
    }
    // A fresh minute, yet the address's hour is spent; newcomers elsewhere still mint.
    expect(budget.take("198.51.100.9")).toMatchObject({
      details: { reason: "register_principal" },
    });
    expect(budget.take("203.0.113.1")).toBeNull();
    clock.t += 3_600_000;
    expect(budget.take("198.51.100.9")).toBeNull();
  });

  test("an IPv6 client is budgeted by its /64: a new address in the same prefix does not reset it", async () => {
    const budget = new PrincipalMintingBudget(() => clock.t);
    for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE; i += 1) {
      expect(budget.take(`2001:db8:0:1::${i.toString(16)}`)).toBeNull();
    }
    for (const sibling of [
      "2001:db8:0:1:ffff:1:2:3",
      "2001:0db8:0000:0001::beef",
      "2001:db8:0:1::1%eth0",
    ]) {
      expect(budget.take(sibling)).toMatchObject({ details: { reason: "register_principal" } });
    }
    expect(budget.take("2001:db8:0:2::1")).toBeNull();
    expect(budget.take("192.0.2.1")).toBeNull();
  });

  test("addressKey: IPv6 by its /64 in every spelling, IPv4 and anything else as given", () => {
    expect(addressKey("2001:db8:0:1::9")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:DB8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("2001:db8::1.2.3.4")).toBe("2001:db8:0:0::/64");
    // An IPv4-mapped address is its own IPv4 client, in either spelling, never one bucket for all.
    expect(addressKey("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(addressKey("::FFFF:5.6.7.8")).toBe("5.6.7.8");
    expect(addressKey("::ffff:c000:201")).toBe("192.0.2.1");
    expect(addressKey("0:0:0:0:0:ffff:c000:202")).toBe("192.0.2.2");
    expect(addressKey("fe80::1%lo")).toBe("fe80:0:0:0::/64");
    expect(addressKey("1:2:3:4:5:6:7:8")).toBe("1:2:3:4::/64");
    expect(addressKey("192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("local")).toBe("local");
  });

  test("an address over its own budget gets register_principal and spends none of the server's", async () => {
    for (let i = 0; i < PRINCIPALS_PER_ADDRESS_PER_MINUTE; i += 1) {
      expect((await mint("198.51.100.7")).status).toBe(200);
    }
    for (let i = 0; i < PRINCIPALS_PER_SERVER.per_minute; i += 1) {
      const refused = await mint("198.51.100.7");
      expect(refused.json.error).toMatchObject({
        message: "too many new principals from this address",
        details: { reason: "register_principal" },
      });
    }
    // The refusals above spent nothing: the rest of the server budget is still there.
    const left = PRINCIPALS_PER_SERVER.per_minute - PRINCIPALS_PER_ADDRESS_PER_MINUTE;
    for (let i = 0; i < left; i += 1) expect((await mint(`203.0.113.${i}`)).status).toBe(200);
    expect((await mint("203.0.113.250")).json.error?.details.reason).toBe(
      "server_principal_budget",
    );
  });
});

describe("a budget set by the operator (--limit)", () => {
  test("each of the four windows binds at its own value, with its own reason", () => {
    const budget = new PrincipalMintingBudget(() => clock.t, {
      perAddressPerMinute: 3,
      perAddressPerHour: 5,
      serverPerMinute: 4,
      serverPerHour: 9,
    });
    for (let i = 0; i < 3; i += 1) expect(budget.take("a")).toBeNull();
    expect(budget.take("a")).toMatchObject({ details: { reason: "register_principal" } });
    expect(budget.take("b")).toBeNull();
    expect(budget.take("c")).toMatchObject({
      details: { reason: "server_principal_budget" },
      retry_after_ms: 60_000,
    });
    clock.t += 60_000;
    for (let i = 0; i < 2; i += 1) expect(budget.take("a")).toBeNull();
    // The address's hour (5) is spent though its minute has room.
    expect(budget.take("a")).toMatchObject({ details: { reason: "register_principal" } });
    for (let i = 0; i < 2; i += 1) expect(budget.take(`d${i}`)).toBeNull();
    clock.t += 60_000;
    expect(budget.take("e")).toBeNull();
    // 9 in the server's hour: refused until the first minute's mints leave it.
    expect(budget.take("f")).toMatchObject({
      details: { reason: "server_principal_budget" },
      retry_after_ms: 3_600_000 - 120_000,
    });
  });

  test("a budget raised for a load test admits hundreds of thousands of mints at a constant cost", () => {
    const budget = new PrincipalMintingBudget(() => clock.t, {
      perAddressPerMinute: 1_000_000,
      perAddressPerHour: 1_000_000,
      serverPerMinute: 1_000_000,
      serverPerHour: 1_000_000,
    });
    const started = performance.now();
    for (let i = 0; i < 200_000; i += 1) {
      if (i % 1000 === 0) clock.t += 1;
      expect(budget.take("10.0.0.1")).toBeNull();
    }
    // Quadratic work (copying the window on every mint) would take minutes here.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
