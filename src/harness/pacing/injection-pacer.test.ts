import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { InjectionPacer } from "./injection-pacer.ts";
import { CLAUDE_CODE_SOCKET_LIMITS, PACER_LIMITS } from "./pacer-limits.ts";

describe("InjectionPacer: the mirror bucket", () => {
  test("a full bucket allows 25 posts at once, the 26th waits 2.5 s for a token", () => {
    const pacer = new InjectionPacer({ now: 0, limits: { ...PACER_LIMITS, outstandingCap: 100 } });
    for (let i = 0; i < 25; i += 1) {
      expect(pacer.nextPostAt(0, `m${i}`)).toBe(0);
      pacer.record(0, `m${i}`);
    }
    const decision = pacer.decide(0, "m25");
    expect(decision.causes).toEqual(["bucket"]);
    expect(decision.at).toBe(2_500);
    expect(pacer.nextPostAt(2_499, "m25")).toBe(2_500);
    expect(pacer.nextPostAt(2_500, "m25")).toBe(2_500);
  });

  test("refills 0.4 token per second up to 25 and no further", () => {
    const pacer = new InjectionPacer({ now: 1_000, initialTokens: 0 });
    expect(pacer.tokens(1_000)).toBe(0);
    expect(pacer.tokens(6_000)).toBeCloseTo(2, 10);
    expect(pacer.tokens(1_000_000)).toBe(25);
  });

  test("initialTokens above capacity is clamped; a clock stepping back adds nothing", () => {
    const pacer = new InjectionPacer({ now: 10_000, initialTokens: 99 });
    expect(pacer.tokens(10_000)).toBe(25);
    pacer.record(10_000, "a");
    expect(pacer.tokens(5_000)).toBe(24);
  });

  test("sustained: one post every 2.5 s once the bucket is drained", () => {
    const pacer = new InjectionPacer({ now: 0, initialTokens: 0 });
    let now = 0;
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      now = pacer.nextPostAt(now, `x${i}`);
      pacer.record(now, `x${i}`);
      pacer.observeActivity(now + 2_000, "idle");
      times.push(now);
    }
    expect(times).toEqual([2_500, 5_000, 7_500, 10_000, 12_500]);
  });
});

describe("InjectionPacer: the same bytes twice in a row", () => {
  test("a repeat of the previous post waits 35 s after it; another text may go at once", () => {
    const pacer = new InjectionPacer({ now: 0 });
    pacer.record(1_000, "Brigade: notice");
    expect(pacer.decide(1_000, "Brigade: notice")).toEqual({ at: 36_000, causes: ["repeat"] });
    expect(pacer.decide(20_000, "Brigade: other")).toEqual({ at: 20_000, causes: [] });
    expect(pacer.nextPostAt(36_000, "Brigade: notice")).toBe(36_000);
  });

  test("only the previous post counts: A, B, A is allowed at once", () => {
    const pacer = new InjectionPacer({ now: 0 });
    pacer.record(0, "A");
    pacer.record(0, "B");
    expect(pacer.nextPostAt(0, "A")).toBe(0);
  });

  test("without bytes the repeat rule is not applied", () => {
    const pacer = new InjectionPacer({ now: 0 });
    pacer.record(0, "A");
    expect(pacer.decide(0).causes).toEqual([]);
  });
});

describe("InjectionPacer: posts outstanding", () => {
  test("after 20 posts only a settled idle observation allows the 21st", () => {
    const pacer = new InjectionPacer({ now: 0 });
    for (let i = 0; i < 20; i += 1) pacer.record(i * 100, `m${i}`);
    expect(pacer.outstanding).toBe(20);
    expect(pacer.decide(5_000, "m20")).toEqual({
      at: Number.POSITIVE_INFINITY,
      causes: ["outstanding"],
    });
    pacer.observeActivity(5_000, "busy");
    expect(pacer.nextPostAt(5_000, "m20")).toBe(Number.POSITIVE_INFINITY);
    // last post at 1 900: an idle read at 3 899 is too soon to prove the posts were taken
    pacer.observeActivity(3_899, "idle");
    expect(pacer.outstanding).toBe(20);
    pacer.observeActivity(3_900, "idle");
    expect(pacer.outstanding).toBe(0);
    expect(pacer.nextPostAt(3_900, "m20")).toBe(3_900);
  });

  test("idle with nothing posted yet resets; several causes are all reported", () => {
    const pacer = new InjectionPacer({
      now: 0,
      initialTokens: 0,
      limits: { ...PACER_LIMITS, outstandingCap: 1 },
    });
    pacer.observeActivity(0, "idle");
    pacer.record(0, "A");
    expect(pacer.decide(0, "A").causes).toEqual(["bucket", "repeat", "outstanding"]);
  });

  test("a restarted watcher starts full: nothing into a busy turn until a settled idle", () => {
    const pacer = new InjectionPacer({ now: 0, initialOutstanding: 99 });
    expect(pacer.outstanding).toBe(PACER_LIMITS.outstandingCap);
    expect(pacer.decide(0, "m").causes).toEqual(["outstanding"]);
    pacer.observeActivity(1_000, "busy");
    expect(pacer.decide(1_000, "m").causes).toEqual(["outstanding"]);
    // Nothing posted by this pacer yet: the first idle reading is already settled.
    pacer.observeActivity(2_000, "idle");
    expect(pacer.outstanding).toBe(0);
    expect(pacer.nextPostAt(2_000, "m")).toBe(2_000);
    expect(new InjectionPacer({ now: 0, initialOutstanding: -3 }).outstanding).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// A tiny pure model of Claude Code 2.1.328's receiver (docs/spec/claude-code.md §0 item 4, §3.3),
// and a simulated watcher that posts through the pacer. The model charges a token before the repeat
// check and treats every post (even one it drops) as the sender's previous post: the strictest
// reading of the facts.
// ---------------------------------------------------------------------------------------------

type Drop = "bucket" | "repeat" | "busy_queue";

class ClaudeCodeReceiverModel {
  readonly delivered: string[] = [];
  readonly dropped: { readonly content: string; readonly why: Drop }[] = [];
  readonly statusLog: { readonly at: number; readonly status: "busy" | "idle" }[] = [];
  #tokens: number = CLAUDE_CODE_SOCKET_LIMITS.bucketCapacity;
  #tokensAt = 0;
  #last: string | undefined;
  #lastAt = Number.NEGATIVE_INFINITY;
  #status: "busy" | "idle";
  #turnEndsAt: number;
  readonly #queue: string[] = [];
  readonly #turnMs: () => number;

  constructor(start: "busy" | "idle", firstTurnMs: number, turnMs: () => number) {
    this.#status = start;
    this.#turnEndsAt = start === "busy" ? firstTurnMs : 0;
    this.#turnMs = turnMs;
    this.statusLog.push({ at: 0, status: start });
  }

  #setStatus(at: number, status: "busy" | "idle"): void {
    if (this.#status !== status) this.statusLog.push({ at, status });
    this.#status = status;
  }

  /** Runs turn ends up to `now`: a turn that ends with posts queued takes them all in a new turn. */
  advance(now: number): void {
    while (this.#status === "busy" && this.#turnEndsAt <= now) {
      if (this.#queue.length > 0) {
        this.delivered.push(...this.#queue.splice(0));
        this.#turnEndsAt += this.#turnMs();
      } else {
        this.#setStatus(this.#turnEndsAt, "idle");
      }
    }
  }

  /** The registry status as it was at `at` (a reader may see a slightly old file). */
  statusAt(at: number): "busy" | "idle" {
    let status = this.statusLog[0]?.status ?? "idle";
    for (const entry of this.statusLog) if (entry.at <= at) status = entry.status;
    return status;
  }

  post(now: number, content: string): void {
    this.advance(now);
    const { bucketCapacity, refillPerSecond, repeatWindowMs, busyQueueCap } =
      CLAUDE_CODE_SOCKET_LIMITS;
    this.#tokens = Math.min(
      bucketCapacity,
      this.#tokens + ((now - this.#tokensAt) * refillPerSecond) / 1000,
    );
    this.#tokensAt = now;
    if (this.#tokens < 1) {
      this.dropped.push({ content, why: "bucket" });
      return;
    }
    this.#tokens -= 1;
    const repeat = content === this.#last && now - this.#lastAt < repeatWindowMs;
    this.#last = content;
    this.#lastAt = now;
    if (repeat) {
      this.dropped.push({ content, why: "repeat" });
      return;
    }
    if (this.#status === "idle") {
      this.delivered.push(content);
      this.#setStatus(now, "busy");
      this.#turnEndsAt = now + this.#turnMs();
    } else if (this.#queue.length >= busyQueueCap) {
      this.dropped.push({ content, why: "busy_queue" });
    } else {
      this.#queue.push(content);
    }
  }
}

interface Scenario {
  readonly start: "busy" | "idle";
  readonly firstTurnMs: number;
  readonly turnMs: readonly number[];
  readonly pollMs: number;
  readonly lagMs: number;
  readonly items: readonly string[];
}

/** Posts every item through the pacer into the model; returns the model after `horizonMs`. */
function simulate(scenario: Scenario, horizonMs: number): ClaudeCodeReceiverModel {
  let turn = 0;
  const model = new ClaudeCodeReceiverModel(scenario.start, scenario.firstTurnMs, () => {
    const ms = scenario.turnMs[turn % scenario.turnMs.length] ?? 10_000;
    turn += 1;
    return ms;
  });
  const pacer = new InjectionPacer({ now: 0 });
  const waiting = [...scenario.items];
  let nextPoll = 0;
  for (let now = 0; now <= horizonMs; now += 100) {
    model.advance(now);
    if (now >= nextPoll) {
      pacer.observeActivity(now, model.statusAt(now - scenario.lagMs));
      nextPoll = now + scenario.pollMs;
    }
    while (waiting.length > 0 && pacer.nextPostAt(now, waiting[0]) <= now) {
      const content = waiting.shift() as string;
      model.post(now, content);
      pacer.record(now, content);
    }
    if (waiting.length === 0 && model.statusAt(now) === "idle") break;
  }
  return model;
}

function frames(n: number, prefix: string): string[] {
  return Array.from({ length: n }, (_, i) => `<brigade-message message-id="${prefix}-${i}">`);
}

describe("InjectionPacer against the Claude Code receiver model", () => {
  test("a burst of 100 to an idle session: all delivered, in order, nothing dropped", () => {
    const items = frames(100, "idle");
    const model = simulate(
      { start: "idle", firstTurnMs: 0, turnMs: [15_000], pollMs: 2_000, lagMs: 0, items },
      3_600_000,
    );
    expect(model.dropped).toEqual([]);
    expect(model.delivered).toEqual(items);
  });

  test("a burst of 100 to a busy session (a 10-minute turn): nothing dropped", () => {
    const items = frames(100, "busy");
    const model = simulate(
      { start: "busy", firstTurnMs: 600_000, turnMs: [45_000], pollMs: 2_000, lagMs: 500, items },
      7_200_000,
    );
    expect(model.dropped).toEqual([]);
    expect(model.delivered).toEqual(items);
  });

  test("repeated notices between frames are spaced, never dropped", () => {
    const items = frames(40, "n").flatMap((frame, i) =>
      i % 4 === 0 ? ["Brigade: same notice", "Brigade: same notice", frame] : [frame],
    );
    const model = simulate(
      { start: "idle", firstTurnMs: 0, turnMs: [5_000], pollMs: 1_000, lagMs: 0, items },
      3_600_000,
    );
    expect(model.dropped).toEqual([]);
    expect(model.delivered).toEqual(items);
  });

  test("positive control: without the pacer the model loses posts of a burst of 100", () => {
    const model = new ClaudeCodeReceiverModel("busy", 600_000, () => 10_000);
    for (const frame of frames(100, "raw")) model.post(0, frame);
    expect(model.dropped.length).toBe(70);
    expect(new Set(model.dropped.map((d) => d.why))).toEqual(new Set(["bucket"]));
    const repeats = new ClaudeCodeReceiverModel("idle", 0, () => 10_000);
    repeats.post(0, "Brigade: n");
    repeats.post(29_999, "Brigade: n");
    expect(repeats.dropped).toEqual([{ content: "Brigade: n", why: "repeat" }]);
    const busy = new ClaudeCodeReceiverModel("busy", 600_000, () => 10_000);
    for (const [i, frame] of frames(60, "q").entries()) busy.post(i * 2_000, frame);
    expect(busy.dropped.map((d) => d.why)).toContain("busy_queue");
  });

  test("property: any turn lengths, poll rates, small status lag and repeats lose nothing", () => {
    fc.assert(
      fc.property(
        fc.record({
          start: fc.constantFrom<"busy" | "idle">("busy", "idle"),
          firstTurnMs: fc.integer({ min: 0, max: 300_000 }),
          turnMs: fc.array(fc.integer({ min: 100, max: 120_000 }), { minLength: 1, maxLength: 5 }),
          pollMs: fc.integer({ min: 100, max: 5_000 }),
          lagMs: fc.integer({ min: 0, max: 1_900 }),
          items: fc.array(
            fc.oneof(
              fc.constantFrom("Brigade: a", "Brigade: b"),
              fc.integer({ min: 0, max: 10_000 }).map((n) => `frame-${n}`),
            ),
            { minLength: 1, maxLength: 120 },
          ),
        }),
        (scenario) => {
          const model = simulate(scenario, 20_000_000);
          expect(model.dropped).toEqual([]);
          expect(model.delivered).toEqual(scenario.items);
        },
      ),
      { numRuns: 60 },
    );
  });

  test("Claude Code's queue depth from the transcript bounds the outstanding count, once settled", () => {
    const pacer = new InjectionPacer({ now: 0, initialOutstanding: PACER_LIMITS.outstandingCap });
    expect(pacer.outstanding).toBe(PACER_LIMITS.outstandingCap);
    pacer.observeClaudeQueue(0, 3);
    expect(pacer.outstanding).toBe(3);
    pacer.record(10_000, "a");
    // read too soon after our own post: that post may not be in the count yet
    pacer.observeClaudeQueue(10_000 + PACER_LIMITS.idleSettleMs - 1, 0);
    expect(pacer.outstanding).toBe(4);
    pacer.observeClaudeQueue(10_000 + PACER_LIMITS.idleSettleMs, 0);
    expect(pacer.outstanding).toBe(0);
    // a deeper queue never raises it
    pacer.observeClaudeQueue(20_000, 40);
    expect(pacer.outstanding).toBe(0);
  });
});
