import type {
  Activity,
  Adapter,
  HeartbeatChanges,
  InboundPolicy,
  LiveDelivery,
} from "../../protocol/index.ts";
import type { ByPidMap } from "../state/index.ts";
import { nextRetryDelay, WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";
import { errorCodeOf as codeOf } from "./watcher-error-code.ts";
import type { WatcherLog } from "./watcher-log.ts";

type TranscriptChanges = Pick<HeartbeatChanges, "model" | "context_used_tokens">;

/** The latest transcript values (a `TranscriptUsageReader`); `undefined` = not known. */
export interface TranscriptValues {
  readonly model: string | undefined;
  readonly contextUsedTokens: number | undefined;
}

/** Construction options of {@link SessionHeartbeats}. */
export interface SessionHeartbeatsOptions {
  readonly adapter: Pick<Adapter, "sessionHeartbeat" | "sessionRegister">;
  readonly sessionId: string;
  /** What SessionStart registered: harness version, name and workspace label for a resume. */
  readonly map: Pick<ByPidMap, "harness_version" | "session_name" | "workspace_label">;
  readonly log: WatcherLog;
  /** The clock, ms; read at construction (the interval starts then) and when a call ends. */
  readonly now: () => number;
  /** Jitter source, [0, 1); default `Math.random`. */
  readonly random?: () => number;
  /** Heartbeat interval, ms (default 30,000). */
  readonly intervalMs?: number;
  /** The watch's back-off; its `maxMs` is capped at the interval for heartbeats. */
  readonly backoff?: WatcherBackoff;
  readonly transcript: TranscriptValues;
  /** The inbound policy a resume registers (the pipeline's current one). */
  readonly policy: () => InboundPolicy;
  /** False once the watcher stops: no heartbeat and no resume starts then. */
  readonly running: () => boolean;
  /** Called after a successful resume (the watcher cuts a retry wait of its watch short). */
  readonly onResumed: () => void;
  /** Whether the session can receive live now (sent with `session.live_delivery` only). */
  readonly liveDelivery?: () => LiveDelivery;
  /** The `harness` a resume registers (default `claude-code`). */
  readonly harness?: string;
}

/** One comparable word for a live-delivery value: `yes` or the reason code. */
function liveKey(value: LiveDelivery): string {
  return value.live_delivery === "yes" ? "yes" : value.live_delivery_reason;
}

/**
 * The session's heartbeats (docs/41-watcher.md "Heartbeats", docs/spec/protocol.md §4.3, §4.5):
 * {@link tick} starts one when the activity differs from the last one the server accepted or
 * `intervalMs` passed since the last one ended; after a failure not before the watch's
 * {@link nextRetryDelay} of the failures in a row, capped at the interval. At most one runs at a
 * time ({@link task}). `model` and `context_used_tokens` ride along only with the adapter's
 * capability ({@link enable}) and only when they differ from the values last accepted. A heartbeat
 * answered `not_found` or `conflict` re-opens the session in place (`sessionRegister` with
 * `resume`). Logs `heartbeat_failed`, `session_resumed`, `session_resume_failed`; never throws.
 *
 * No timers: the caller ticks it with its clock's `now` (ms).
 *
 * @example heartbeats.tick(clock(), activity); await heartbeats.task;
 */
export class SessionHeartbeats {
  readonly #o: SessionHeartbeatsOptions;
  readonly #intervalMs: number;
  readonly #schedule: WatcherBackoff;
  readonly #random: () => number;
  #sendModel = false;
  #sendContext = false;
  #sendLive = false;
  #sentLive: string | undefined;
  #busy = false;
  #task: Promise<void> = Promise.resolve();
  #lastAt: number;
  #sentActivity: Activity | undefined;
  #sentModel: string | undefined;
  #sentContext: number | undefined;
  /** Failed heartbeats in a row, and the earliest time of the next try after one (ms). */
  #failures = 0;
  #notBefore = 0;

  constructor(options: SessionHeartbeatsOptions) {
    this.#o = options;
    this.#intervalMs = options.intervalMs ?? 30_000;
    const backoff = options.backoff ?? WATCHER_BACKOFF;
    // A flip or a stale value would otherwise retry at every tick against a server that is
    // down: the watch's back-off schedule, capped at the heartbeat interval.
    this.#schedule = { ...backoff, maxMs: Math.min(backoff.maxMs, this.#intervalMs) };
    this.#random = options.random ?? Math.random;
    this.#lastAt = options.now();
  }

  /**
   * Sends the transcript values (and the live delivery, `session.live_delivery`) the adapter's
   * `describe` capabilities allow.
   */
  enable(capabilities: {
    readonly model: boolean;
    readonly contextUsedTokens: boolean;
    readonly liveDelivery?: boolean;
  }): void {
    this.#sendModel = capabilities.model;
    this.#sendContext = capabilities.contextUsedTokens;
    this.#sendLive = capabilities.liveDelivery === true;
  }

  /** The live delivery to send now: only with the capability and when it changed. */
  #liveChange(): LiveDelivery | undefined {
    const read = this.#o.liveDelivery;
    if (!this.#sendLive || read === undefined) return undefined;
    const value = read();
    return liveKey(value) === this.#sentLive ? undefined : value;
  }

  /** True when some transcript value may be sent (the caller then reads the transcript). */
  get wantsTranscript(): boolean {
    return this.#sendModel || this.#sendContext;
  }

  /** The running heartbeat (and resume), or a settled promise. */
  get task(): Promise<void> {
    return this.#task;
  }

  /**
   * Starts a heartbeat carrying `activity` when one is due at `now` (ms) and none runs; without
   * an `activity` (a delivery process that cannot tell a busy turn from an idle one) the
   * heartbeat leaves the session's activity as the hooks last said it.
   */
  tick(now: number, activity?: Activity): void {
    // A change of live delivery is news for senders: it is due at once, like an activity flip.
    const due =
      activity !== this.#sentActivity ||
      now - this.#lastAt >= this.#intervalMs ||
      this.#liveChange() !== undefined;
    if (!due || now < this.#notBefore) return;
    // At most one heartbeat outstanding: a tick that finds one running leaves it be.
    if (!this.#busy && this.#o.running()) this.#task = this.#beat(activity);
  }

  /** The transcript values a heartbeat carries (a heartbeat never clears them). */
  #changes(): TranscriptChanges {
    const model = this.#o.transcript.model;
    const tokens = this.#o.transcript.contextUsedTokens;
    return {
      ...(this.#sendModel && model !== undefined && model !== this.#sentModel ? { model } : {}),
      ...(this.#sendContext && tokens !== undefined && tokens !== this.#sentContext
        ? { context_used_tokens: tokens }
        : {}),
    };
  }

  #accepted(activity: Activity | undefined, sent: TranscriptChanges): void {
    this.#sentActivity = activity;
    if (typeof sent.model === "string") this.#sentModel = sent.model;
    if (typeof sent.context_used_tokens === "number") this.#sentContext = sent.context_used_tokens;
  }

  async #beat(activity: Activity | undefined): Promise<void> {
    this.#busy = true;
    const transcript = this.#changes();
    // Sent with every heartbeat, not only on a change: a SessionStart renewal or a resume may
    // have written another value meanwhile, and the next heartbeat puts ours back.
    const live = this.#sendLive ? this.#o.liveDelivery?.() : undefined;
    try {
      await this.#o.adapter.sessionHeartbeat(this.#o.sessionId, {
        ...(activity === undefined ? {} : { activity }),
        ...transcript,
        ...live,
      });
      this.#accepted(activity, transcript);
      if (live !== undefined) this.#sentLive = liveKey(live);
      this.#failures = 0;
      this.#notBefore = 0;
    } catch (error) {
      const code = codeOf(error);
      this.#o.log.write("warn", "heartbeat_failed", { code });
      this.#failures += 1;
      this.#notBefore =
        this.#o.now() + nextRetryDelay(this.#schedule, this.#failures, false, this.#random);
      if (code === "not_found" || code === "conflict") await this.#resume(activity);
    } finally {
      this.#lastAt = this.#o.now();
      this.#busy = false;
    }
  }

  /**
   * Tells the server, with one last heartbeat capped at `timeoutMs`, that the session cannot
   * receive live because this watcher stops while the session goes on: `watcher_stopped`
   * (docs/41-watcher.md "Stopping on purpose"), or `inbound_gate` when it stands aside for
   * Claude Code's gate. Only with `session.live_delivery`; it first waits for a heartbeat still
   * running (within the same cap), so an older `yes` cannot land after it. Logs
   * `live_stop_reported` or `live_stop_report_failed` with the code; never throws.
   */
  async reportStopped(
    timeoutMs: number,
    reason: "watcher_stopped" | "inbound_gate" = "watcher_stopped",
  ): Promise<void> {
    if (!this.#sendLive) return;
    const signal = AbortSignal.timeout(timeoutMs);
    const aborted = new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    await Promise.race([this.#task, aborted]);
    try {
      await this.#o.adapter.sessionHeartbeat(
        this.#o.sessionId,
        { live_delivery: "no", live_delivery_reason: reason },
        { signal },
      );
      this.#sentLive = reason;
      this.#o.log.write("info", "live_stop_reported");
    } catch (error) {
      this.#o.log.write("warn", "live_stop_report_failed", { code: codeOf(error) });
    }
  }

  /**
   * Re-opens our own session in place after a heartbeat found it gone or closed, with what
   * SessionStart registered plus the transcript values under the same capabilities.
   */
  async #resume(activity: Activity | undefined): Promise<void> {
    if (!this.#o.running()) return;
    const { adapter, log, map, sessionId } = this.#o;
    const model = this.#sendModel ? this.#o.transcript.model : undefined;
    const tokens = this.#sendContext ? this.#o.transcript.contextUsedTokens : undefined;
    const live = this.#sendLive ? this.#o.liveDelivery?.() : undefined;
    const values: TranscriptChanges = {
      ...(model === undefined ? {} : { model }),
      ...(tokens === undefined ? {} : { context_used_tokens: tokens }),
    };
    try {
      const resumed = await adapter.sessionRegister({
        harness: this.#o.harness ?? "claude-code",
        harness_version: map.harness_version,
        session_name: map.session_name,
        activity: activity ?? "idle",
        inbound: this.#o.policy(),
        ...(map.workspace_label === undefined ? {} : { workspace_label: map.workspace_label }),
        ...(model === undefined ? {} : { model }),
        ...(tokens === undefined ? {} : { context_used_tokens: tokens }),
        ...live,
        resume: { session_id: sessionId },
      });
      this.#accepted(activity, values);
      if (live !== undefined) this.#sentLive = liveKey(live);
      log.write("info", "session_resumed", { same: resumed.session_id === sessionId });
      this.#o.onResumed();
    } catch (resumeError) {
      log.write("warn", "session_resume_failed", { code: codeOf(resumeError) });
    }
  }
}
