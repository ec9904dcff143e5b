import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { BapError } from "../../protocol/index.ts";
import type { SessionContext } from "../session-context/index.ts";
import { readReleaseRequests, stateLayout } from "../state/index.ts";
import { LeaseKeeper } from "./lease-keeper.ts";

/** A session context whose adapter's heartbeat answers `answer(sessionId)`. */
function contextOf(sessionId: string, calls: string[], answer: () => void): SessionContext {
  const adapter = {
    sessionHeartbeat: async (id: string, request: unknown) => {
      calls.push(`${id} ${JSON.stringify(request)}`);
      answer();
      return { session_id: id, state: "idle", lease_until: "", server_time: "" };
    },
  };
  return {
    claudePid: "4242",
    map: sampleByPidMap({ brigade_session_id: sessionId }),
    layout: {} as SessionContext["layout"],
    uid: 0,
    configDir: "/c",
    adapter: adapter as unknown as SessionContext["adapter"],
  };
}

describe("LeaseKeeper", () => {
  test("heartbeats every kept session with no activity member; one the server closed is dropped, a failure of another kind is kept", async () => {
    const calls: string[] = [];
    const keeper = new LeaseKeeper();
    keeper.keep(contextOf("s-live", calls, () => {}));
    keeper.keep(
      contextOf("s-closed", calls, () => {
        throw new BapError({ code: "conflict", message: "closed", retryable: false });
      }),
    );
    keeper.keep(
      contextOf("s-flaky", calls, () => {
        throw new BapError({ code: "unavailable", message: "down", retryable: true });
      }),
    );
    await keeper.tick();
    expect(calls.sort()).toEqual(["s-closed {}", "s-flaky {}", "s-live {}"]);
    expect([...keeper.sessions].sort()).toEqual(["s-flaky", "s-live"]);
    calls.length = 0;
    await keeper.tick();
    expect(calls.sort()).toEqual(["s-flaky {}", "s-live {}"]);
  });

  test("held messages the person released on the dashboard become the session's release requests, as brigade inbox release records them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "brigade-lease-"));
    try {
      const layout = stateLayout(join(dir, "brigade"));
      const uid = process.getuid?.() ?? 0;
      const released: string[][] = [["m-1", "m-2"], []];
      const context: SessionContext = {
        ...contextOf("s-1", [], () => {}),
        layout,
        uid,
        adapter: {
          sessionHeartbeat: async (id: string) => ({
            session_id: id,
            state: "idle",
            lease_until: "",
            server_time: "",
            ...((released[0]?.length ?? 0) > 0 ? { released_message_ids: released[0] } : {}),
          }),
        } as unknown as SessionContext["adapter"],
      };
      const keeper = new LeaseKeeper();
      keeper.keep(context);
      expect(readReleaseRequests(layout, "s-1", uid)).toEqual([]);
      await keeper.tick();
      expect(readReleaseRequests(layout, "s-1", uid)).toEqual(["m-1", "m-2"]);
      released.shift();
      await keeper.tick();
      expect(readReleaseRequests(layout, "s-1", uid)).toEqual(["m-1", "m-2"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
