import { describe, expect, test } from "vitest";
import { listenLossReason } from "./listen-loss-reason.ts";
import { MISSED_LOG_INTERVAL_MS, WatchFeedLog } from "./watch-feed-log.ts";

function recorder() {
  const lines: Array<{ level: string; event: string; fields: unknown }> = [];
  return {
    lines,
    log: {
      log: (level: string, event: string, fields?: unknown) => lines.push({ level, event, fields }),
    },
  };
}

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("listenLossReason", () => {
  test("maps what pg reports to a fixed code, never its text", () => {
    expect(listenLossReason(undefined)).toBe("ended");
    expect(listenLossReason(coded("57P01"))).toBe("terminated");
    expect(listenLossReason(coded("57P02"))).toBe("server_crashed");
    expect(listenLossReason(coded("57P03"))).toBe("server_starting");
    expect(listenLossReason(coded("53300"))).toBe("server_busy");
    expect(listenLossReason(coded("28P01"))).toBe("login_refused");
    expect(listenLossReason(coded("3D000"))).toBe("login_refused");
    expect(listenLossReason(coded("ECONNREFUSED"))).toBe("refused");
    expect(listenLossReason(coded("ECONNRESET"))).toBe("network_error");
    expect(listenLossReason(coded("ETIMEDOUT"))).toBe("timeout");
    expect(listenLossReason(new Error("Connection terminated due to connection timeout"))).toBe(
      "timeout",
    );
    expect(listenLossReason(new Error("Connection terminated unexpectedly"))).toBe("ended");
    expect(listenLossReason(new Error("postgres://u:hunter2@h/x went wrong"))).toBe("other");
    expect(listenLossReason("a string")).toBe("other");
  });
});

describe("WatchFeedLog", () => {
  test("one line per connection event, with its fixed fields", () => {
    const r = recorder();
    const log = new WatchFeedLog(r.log);
    log.broadcast("watch_listen_connected", { attempt: 0 });
    log.broadcast("watch_listen_lost", { reason: "terminated", retryInMs: 100 });
    log.broadcast("watch_listen_failed", { reason: "refused", attempt: 1, retryInMs: 200 });
    log.broadcast("watch_notify_failed", { reason: "network_error" });
    log.catchUpDone({ sessions: 3, found: 2, ms: 4 });
    log.membershipsEnded(1);
    expect(r.lines).toEqual([
      { level: "info", event: "watch_listen_connected", fields: { failed_attempts: 0 } },
      {
        level: "warn",
        event: "watch_listen_lost",
        fields: { reason: "terminated", retry_in_ms: 100 },
      },
      {
        level: "warn",
        event: "watch_listen_retry",
        fields: { reason: "refused", attempt: 1, retry_in_ms: 200 },
      },
      { level: "warn", event: "watch_notify_failed", fields: { reason: "network_error" } },
      { level: "info", event: "watch_catchup_done", fields: { sessions: 3, found: 2, ms: 4 } },
      { level: "info", event: "watch_memberships_swept", fields: { ended: 1 } },
    ]);
  });

  test("a long outage logs its first five failed attempts, then one in thirty", () => {
    const r = recorder();
    const log = new WatchFeedLog(r.log);
    for (let attempt = 1; attempt <= 120; attempt += 1) {
      log.broadcast("watch_listen_failed", { reason: "refused", attempt, retryInMs: 2000 });
    }
    const attempts = r.lines.map((l) => (l.fields as { attempt: number }).attempt);
    expect(attempts).toEqual([1, 2, 3, 4, 5, 30, 60, 90, 120]);
  });

  test("missed deliveries: the first at once, then at most one line a minute with the sums", () => {
    const r = recorder();
    let now = 0;
    const log = new WatchFeedLog(r.log, () => now);
    log.missed({ deliveries: 0, sessions: 0 });
    expect(r.lines).toEqual([]);
    log.missed({ deliveries: 2, sessions: 1 });
    for (let i = 0; i < 100; i += 1) {
      now += 500;
      log.missed({ deliveries: 1, sessions: 1 });
    }
    now = MISSED_LOG_INTERVAL_MS;
    log.missed({ deliveries: 0, sessions: 0 });
    expect(r.lines).toEqual([
      { level: "warn", event: "watch_poll_found_missed", fields: { deliveries: 2, sessions: 1 } },
      {
        level: "warn",
        event: "watch_poll_found_missed",
        fields: { deliveries: 100, sessions: 100 },
      },
    ]);
  });
});
