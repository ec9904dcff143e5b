import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { senderEnvelope } from "../../../test/support/fake-watcher-adapter.ts";
import type { Adapter, MessageEnvelope } from "../../protocol/index.ts";
import {
  checkoutKey,
  readPendingRecords,
  rememberCheckoutSession,
  stateLayout,
} from "../state/index.ts";
import { adoptStranded, MAX_ADOPTED_PER_START } from "./adopt-stranded.ts";
import { HookOutput } from "./hook-output.ts";
import { defaultHookServices, type HookContext } from "./index.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A SessionStart of session `s-1` in a checkout whose earlier session `s-0` ended. */
async function adoptFrom(moved: readonly MessageEnvelope[]): Promise<{
  held: string[];
  out: string;
  log: string[];
  acked: string[][];
}> {
  const root = mkdtempSync(join(tmpdir(), "brigade-adopt-"));
  roots.push(root);
  const layout = stateLayout(join(root, "state"));
  const uid = process.getuid?.() ?? 0;
  const map = sampleByPidMap();
  const checkout = join(root, "repo");
  rememberCheckoutSession(layout, checkoutKey(map.team_ref, checkout), "s-0", uid);
  const acked: string[][] = [];
  const adapter = {
    describe: async () => ({ capabilities: ["message.adopt"] }),
    messageAdopt: async () => ({ messages: [...moved] }),
    messageAck: async (_session: string, request: { message_ids: string[] }) => {
      acked.push(request.message_ids);
      return { acked: request.message_ids, unknown: [] };
    },
  } as unknown as Adapter;
  const log: string[] = [];
  const ctx: HookContext = {
    env: {},
    uid,
    now: () => Date.parse("2026-12-04T10:00:00Z"),
    entryScript: "/opt/brigade/bin/brigade",
    services: { ...defaultHookServices(), openAdapter: () => adapter },
    log: (line) => log.push(line),
  };
  const out = new HookOutput();
  await adoptStranded(ctx, layout, map, checkout, out);
  const held = readPendingRecords(layout, map.brigade_session_id, uid).map((r) => r.message_id);
  return { held, out: out.text(), log, acked };
}

describe("adoptStranded", () => {
  test("every moved message within the inbox cap becomes a held record, announced in one line", async () => {
    const moved = [senderEnvelope(1), senderEnvelope(2)];
    const result = await adoptFrom(moved);
    expect(result.held).toEqual(["m-1", "m-2"]);
    expect(result.out).toContain(
      "Brigade: 2 teammate messages sent to earlier sessions in this checkout are held for the user",
    );
    expect(result.log).toEqual([]);
  });

  test("a broken server's answer past the inbox cap is taken in only up to the cap, and logged", async () => {
    const moved = Array.from({ length: 5_000 }, (_, i) => senderEnvelope(i));
    const result = await adoptFrom(moved);
    expect(MAX_ADOPTED_PER_START).toBe(60);
    expect(result.held).toEqual(moved.slice(0, 60).map((m) => m.message_id));
    expect(result.out).toContain("Brigade: 60 teammate messages");
    expect(result.log).toEqual(["brigade hook: adopt_capped\n"]);
    expect(result.acked).toEqual([]);
  });
});
