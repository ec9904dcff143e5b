import { describe, expect, test } from "vitest";
import { type Adapter, BapError, type MessageReportRequest } from "../../protocol/index.ts";
import { DispositionReporter } from "./disposition-reporter.ts";

/** A stand-in adapter: only `describe` and `messageReport` are ever called by the reporter. */
function fakeAdapter(capabilities: string[], fail = false) {
  const calls: MessageReportRequest[] = [];
  const adapter = {
    describe: async () => ({ capabilities }),
    messageReport: async (_session: string, request: MessageReportRequest) => {
      calls.push(request);
      if (fail) throw new BapError({ code: "unavailable", message: "x", retryable: true });
      return { reported: request.message_ids, unknown: [] };
    },
  } as unknown as Adapter;
  return { adapter, calls };
}

describe("DispositionReporter", () => {
  test("held and refused are reported once each, batched per state; other outcomes never", async () => {
    const { adapter, calls } = fakeAdapter(["message.receive", "message.state"]);
    const reporter = new DispositionReporter(adapter, "s-1");
    reporter.note("held", "m-1");
    reporter.note("held", "m-2");
    reporter.note("refused", "m-3");
    reporter.note("queued", "m-4");
    reporter.note("duplicate", "m-5");
    await reporter.flush();
    expect(calls).toEqual([
      { message_ids: ["m-1", "m-2"], state: "held" },
      { message_ids: ["m-3"], state: "refused" },
    ]);
    reporter.note("held", "m-1");
    await reporter.flush();
    expect(calls).toHaveLength(2);
    reporter.note("refused", "m-1");
    await reporter.flush();
    expect(calls[2]).toEqual({ message_ids: ["m-1"], state: "refused" });
  });

  test("without the capability nothing is sent; a failure is passed on as a code and retried when noted again", async () => {
    const none = fakeAdapter(["message.receive"]);
    const quiet = new DispositionReporter(none.adapter, "s-1");
    quiet.note("held", "m-1");
    await quiet.flush();
    expect(none.calls).toEqual([]);
    const failing = fakeAdapter(["message.state"], true);
    const codes: string[] = [];
    const reporter = new DispositionReporter(failing.adapter, "s-1", (code) => codes.push(code));
    reporter.note("held", "m-1");
    await reporter.flush();
    reporter.note("held", "m-1");
    await reporter.flush();
    expect(failing.calls).toHaveLength(2);
    expect(codes).toEqual(["unavailable", "unavailable"]);
  });
});

describe("DispositionReporter against a flooding server", () => {
  test("one report per state in flight; what is noted meanwhile goes next, at most 200 ids", async () => {
    const calls: MessageReportRequest[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const adapter = {
      describe: async () => ({ capabilities: ["message.state"] }),
      messageReport: async (_session: string, request: MessageReportRequest) => {
        calls.push(request);
        await gate;
        return { reported: request.message_ids, unknown: [] };
      },
    } as unknown as Adapter;
    const reporter = new DispositionReporter(adapter, "s-1");
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 1_000; i += 1) {
      reporter.note("refused", `m-${i}`);
      flushes.push(reporter.flush());
      await Promise.resolve();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(1);
    release();
    await Promise.all(flushes);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.message_ids).toEqual(["m-0"]);
    expect(calls[1]?.message_ids).toHaveLength(200);
    expect(calls[1]?.message_ids[0]).toBe("m-1");
  });

  test("a flush in any job while an earlier one ends still sends its notes", async () => {
    // A flush landing in the job between a drain's last look for notes and its end must start a
    // drain of its own; which job that is depends on the drain's awaits, so every one of the
    // first 30 jobs after the first flush is tried.
    for (let jobs = 0; jobs < 30; jobs += 1) {
      const calls: string[][] = [];
      const adapter = {
        describe: async () => ({ capabilities: ["message.state"] }),
        messageReport: async (_session: string, request: MessageReportRequest) => {
          calls.push([...request.message_ids]);
          return { reported: request.message_ids, unknown: [] };
        },
      } as unknown as Adapter;
      const reporter = new DispositionReporter(adapter, "s-1");
      reporter.note("held", "m-1");
      const first = reporter.flush();
      for (let i = 0; i < jobs; i += 1) await Promise.resolve();
      reporter.note("held", "m-2");
      const second = reporter.flush();
      await first;
      await second;
      expect({ jobs, sent: calls.flat().sort() }).toEqual({ jobs, sent: ["m-1", "m-2"] });
    }
  });
});
