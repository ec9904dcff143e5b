import { describe, expect, test } from "vitest";
import { BrigadeService } from "../service/index.ts";
import { openSqliteStore } from "../store/sqlite/index.ts";
import { createApp } from "./app.ts";
import { digestOperatorKey } from "./operator-key.ts";
import { OPERATOR_KEY_HEADER } from "./registration-gate.ts";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./server-limits.ts";
import type { StoreHealthVerdict } from "./store-health.ts";

const KEY = `brgop1.${"k".repeat(43)}`;
const RAISED: ServerLimits = { ...DEFAULT_SERVER_LIMITS, principals_per_server_per_hour: 50_000 };

function appFor(
  mode: "open" | "closed",
  verdict: StoreHealthVerdict = { ok: true },
): ReturnType<typeof createApp> {
  return createApp(new BrigadeService(openSqliteStore(":memory:")), {
    storeKind: "sqlite",
    storeHealth: async () => verdict,
    limits: RAISED,
    registration: mode === "open" ? { mode } : { mode, operatorKeyDigest: digestOperatorKey(KEY) },
  });
}

async function health(app: ReturnType<typeof createApp>, key?: string, method = "GET") {
  const headers: Record<string, string> = key === undefined ? {} : { [OPERATOR_KEY_HEADER]: key };
  const response = await app.fetch(
    new Request("http://brigade.test/v1/health", { method, headers }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

const PUBLIC = '{"status":"ok","protocol_version":"1","store":"sqlite"}';

describe("GET /v1/health: the operator view", () => {
  test("the operator key of a closed server adds every settable limit in force", async () => {
    const answer = await health(appFor("closed"), KEY);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      status: "ok",
      protocol_version: "1",
      store: "sqlite",
      limits: RAISED,
    });
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  test("a store that cannot serve keeps its 503 and reason in the operator view", async () => {
    const answer = await health(appFor("closed", { ok: false, reason: "store_timeout" }), KEY);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toEqual({
      status: "unavailable",
      protocol_version: "1",
      store: "sqlite",
      reason: "store_timeout",
      limits: RAISED,
    });
  });

  test("no key, a wrong or oversized key, or any key on an open server: the public reply, byte for byte", async () => {
    const closed = appFor("closed");
    for (const key of [
      undefined,
      `brgop1.${"x".repeat(43)}`,
      "",
      KEY.repeat(10),
      KEY.slice(0, -1),
    ]) {
      const answer = await health(closed, key);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(PUBLIC);
    }
    const open = appFor("open");
    expect((await health(open, KEY)).text).toBe(PUBLIC);
    expect((await health(open)).text).toBe(PUBLIC);
  });

  test("HEAD with the key answers like GET without a body", async () => {
    const answer = await health(appFor("closed"), KEY, "HEAD");
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");
  });
});
