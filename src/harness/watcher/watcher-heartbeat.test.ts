import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import {
  type FakeAdapterOptions,
  fakeWatcherAdapter,
  watcherTestEnv,
} from "../../../test/support/fake-watcher-adapter.ts";
import { until } from "../../../test/support/until.ts";
import { BapError, type HeartbeatRequest } from "../../protocol/index.ts";
import { type ByPidMap, type StateLayout, stateLayout, writeByPidMap } from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { type RunWatcherOptions, runWatcher } from "./run-watcher.ts";

const CLAUDE = "4242";
const BOTH = ["session.model", "session.context_used_tokens"];
let base: string;
let layout: StateLayout;
let transcript: string;
let registry: string;

const probe: ProcessProbe = {
  liveness: () => "alive",
  startToken: (pid) => processStartToken(pid),
};

/** One main-chain assistant entry as Claude Code writes it (only the members we read). */
const assistant = (model: string, input: number, cacheRead: number, cacheCreation: number) =>
  `${JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: {
      role: "assistant",
      model,
      content: [{ type: "text", text: "a private sentence that must never leave" }],
      usage: {
        input_tokens: input,
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: cacheCreation,
        output_tokens: 50,
      },
    },
  })}\n`;

function writeMap(over: Partial<ByPidMap> = {}): void {
  writeByPidMap(
    layout,
    sampleByPidMap({
      socket_path: "",
      config_dir: join(base, "config"),
      transcript_path: transcript,
      workspace_label: "api",
      ...over,
    }),
  );
}

const setActivity = (status: "busy" | "idle"): void =>
  writeFileSync(join(registry, `${CLAUDE}.json`), JSON.stringify({ status }));

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-heartbeat-"));
  layout = stateLayout(join(base, "brigade"));
  transcript = join(base, "projects", "w", "5d1c.jsonl");
  mkdirSync(join(base, "projects", "w"), { recursive: true });
  registry = join(base, "claude", "sessions");
  mkdirSync(registry, { recursive: true });
  writeMap();
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const running: { controller: AbortController; exit: ReturnType<typeof runWatcher> }[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) {
    w.controller.abort();
    await w.exit;
  }
});

/** Starts a watcher (no socket: heartbeats and the tick only) over a fake adapter. */
function start(adapter: FakeAdapterOptions, options: Partial<RunWatcherOptions> = {}) {
  const fake = fakeWatcherAdapter(adapter);
  const controller = new AbortController();
  const exit = runWatcher({
    claudePid: CLAUDE,
    env: watcherTestEnv(base, CLAUDE, "tok-secret"),
    probe,
    signal: controller.signal,
    tickMs: 20,
    heartbeatMs: 60,
    openAdapter: () => fake.adapter,
    ...options,
  });
  running.push({ controller, exit });
  return { ...fake, controller, exit };
}

const carried = (beats: readonly HeartbeatRequest[]) =>
  beats.map((b) => [b.model, b.context_used_tokens]);

describe("heartbeats carry the transcript's model and context size", () => {
  test("sent with both capabilities, each only when it changed, read incrementally", async () => {
    writeFileSync(transcript, assistant("claude-opus-4-5", 4, 14_006, 2_210));
    const { calls } = start({ capabilities: BOTH });
    await until("first heartbeat", () => calls.heartbeats.length >= 1);
    expect(calls.heartbeats[0]).toEqual({
      activity: "idle",
      model: "claude-opus-4-5",
      context_used_tokens: 16_220,
    });
    await until("a periodic heartbeat", () => calls.heartbeats.length >= 3);
    expect(carried(calls.heartbeats.slice(1, 3))).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
    // A turn ends: a newer usage, same model; then a model switch with the same context size.
    appendFileSync(transcript, assistant("claude-opus-4-5", 6, 16_216, 1_834));
    await until("the new context size", () =>
      calls.heartbeats.some((b) => b.context_used_tokens === 18_056),
    );
    const grown = calls.heartbeats.find((b) => b.context_used_tokens === 18_056);
    expect(grown?.model).toBeUndefined();
    appendFileSync(transcript, assistant("claude-sonnet-4-5", 6, 16_216, 1_834));
    await until("the new model", () =>
      calls.heartbeats.some((b) => b.model === "claude-sonnet-4-5"),
    );
    const switched = calls.heartbeats.find((b) => b.model === "claude-sonnet-4-5");
    expect(switched?.context_used_tokens).toBeUndefined();
    // Nothing of the transcript but those two values ever reaches the adapter.
    expect(JSON.stringify(calls.heartbeats)).not.toContain("private sentence");
    expect(JSON.stringify(calls.heartbeats)).not.toContain(transcript);
  });

  test("without the capabilities neither is sent; with one, only that one", async () => {
    writeFileSync(transcript, assistant("claude-opus-4-5", 1, 2, 3));
    const none = start({ capabilities: [] });
    await until("heartbeats", () => none.calls.heartbeats.length >= 2);
    expect(carried(none.calls.heartbeats)).toEqual(
      none.calls.heartbeats.map(() => [undefined, undefined]),
    );
    none.controller.abort();
    await none.exit;

    const modelOnly = start({ capabilities: ["session.model"] });
    await until("heartbeat", () => modelOnly.calls.heartbeats.length >= 1);
    expect(modelOnly.calls.heartbeats[0]).toEqual({ activity: "idle", model: "claude-opus-4-5" });
    modelOnly.controller.abort();
    await modelOnly.exit;

    const contextOnly = start({ capabilities: ["session.context_used_tokens"] });
    await until("heartbeat", () => contextOnly.calls.heartbeats.length >= 1);
    expect(contextOnly.calls.heartbeats[0]).toEqual({ activity: "idle", context_used_tokens: 6 });
  });

  test("a failed heartbeat sends the values again; one accepted does not", async () => {
    writeFileSync(transcript, assistant("m", 10, 0, 0));
    let fail = true;
    const { calls } = start({
      capabilities: BOTH,
      heartbeat: async () => {
        if (fail) throw new BapError({ code: "unavailable", message: "x", retryable: true });
        return {};
      },
    });
    await until("a failed heartbeat", () => calls.heartbeats.length >= 1);
    fail = false;
    await until("two more", () => calls.heartbeats.length >= 3);
    expect(carried(calls.heartbeats.slice(0, 3))).toEqual([
      ["m", 10],
      ["m", 10],
      [undefined, undefined],
    ]);
    expect(calls.registrations).toEqual([]);
  });

  test("at most one heartbeat outstanding, however many ticks and flips pass", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let outstanding = 0;
    let most = 0;
    const { calls } = start({
      heartbeat: async () => {
        outstanding += 1;
        most = Math.max(most, outstanding);
        await gate;
        outstanding -= 1;
        return {};
      },
    });
    await until("the first heartbeat", () => calls.heartbeats.length === 1);
    for (const status of ["busy", "idle", "busy"] as const) {
      setActivity(status);
      await new Promise((r) => setTimeout(r, 80)); // four ticks, past the 60 ms interval
    }
    expect(calls.heartbeats).toHaveLength(1);
    release();
    await until("the flip, once free", () => calls.heartbeats.length >= 2);
    expect(calls.heartbeats[1]?.activity).toBe("busy");
    expect(most).toBe(1);
  });
});

describe("a heartbeat answered not_found or conflict resumes our own session", () => {
  for (const code of ["not_found", "conflict"] as const) {
    test(code, async () => {
      writeFileSync(transcript, assistant("claude-opus-4-5", 100, 0, 0));
      let answered = false;
      const { calls } = start({
        capabilities: BOTH,
        heartbeat: async () => {
          if (answered) return {};
          answered = true;
          throw new BapError({ code, message: "gone", retryable: false });
        },
      });
      await until("the resume", () => calls.registrations.length === 1);
      expect(calls.registrations[0]).toEqual({
        harness: "claude-code",
        harness_version: "2.1.328",
        session_name: "web",
        activity: "idle",
        inbound: "accept",
        workspace_label: "api",
        model: "claude-opus-4-5",
        context_used_tokens: 100,
        resume: { session_id: "s-1" },
      });
      // The resume carried the values: the next heartbeats do not repeat them.
      await until("a later heartbeat", () => calls.heartbeats.length >= 2);
      expect(carried(calls.heartbeats.slice(1))).toEqual(
        calls.heartbeats.slice(1).map(() => [undefined, undefined]),
      );
      expect(calls.registrations).toHaveLength(1);
    });
  }

  test("Claude Code dying during a resume: the session is closed after the resume, not before", async () => {
    let claude: "alive" | "dead" = "alive";
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let closesWhenResumed = -1;
    const fake = start(
      {
        heartbeat: async () => {
          throw new BapError({ code: "not_found", message: "gone", retryable: false });
        },
        register: async () => {
          await gate;
          closesWhenResumed = fake.calls.closes;
          return { session_id: "s-1", resumed: true };
        },
      },
      { probe: { ...probe, liveness: (pid) => (pid === 4242 ? claude : "alive") } },
    );
    await until("the resume in flight", () => fake.calls.registrations.length === 1);
    claude = "dead";
    await new Promise((r) => setTimeout(r, 100));
    open();
    expect(await fake.exit).toEqual({ reason: "claude_gone", status: 0 });
    expect(closesWhenResumed).toBe(0);
    expect(fake.calls.closes).toBe(1);
  });

  test("other failures do not resume", async () => {
    const { calls } = start({
      heartbeat: async () => {
        throw new BapError({ code: "unavailable", message: "down", retryable: true });
      },
    });
    await until("several heartbeats", () => calls.heartbeats.length >= 3);
    expect(calls.registrations).toEqual([]);
  });
});
