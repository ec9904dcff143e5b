import { statSync } from "node:fs";
import { join } from "node:path";
import {
  type Activity,
  type Adapter,
  DEFAULT_RECEIVE_LIMIT,
  ERROR_EXIT_STATUS,
} from "../../protocol/index.ts";
import { DispositionReporter } from "../adapter/index.ts";
import { DEFAULT_UPLOADS_RETENTION_SECONDS, MessageFiles } from "../attachments/index.ts";
import {
  claudeConfigDir,
  gateClosedLastingly,
  type InboundGateState,
  type InboxPostOptions,
  type InboxPostResult,
  inboundGateOpen,
  parseTranscriptDeliveryLine,
  postToInbox,
  readClaudeArgv,
  readRegistryActivity,
  registryFolder,
  TranscriptUsageReader,
} from "../claude-code/index.ts";
import { fetchedMessages, type InboundPipeline } from "../inbound/index.ts";
import type { InjectionPacer } from "../pacing/index.ts";
import {
  type ByPidMap,
  consumeReleaseRequests,
  openSessionInbound,
  type StateLayout,
} from "../state/index.ts";
import { AckBatcher } from "./ack-batcher.ts";
import {
  CONFIRMATION_LIMITS,
  DeliveryConfirmations,
  type MessageItem,
} from "./delivery-confirmations.ts";
import {
  GATE_CLOSED_NOTICE,
  HELD_BY_DIALOG_NOTICE,
  UNCONFIRMED_NOTICE,
} from "./delivery-notices.ts";
import { InboxDelivery, successorPacer } from "./inbox-delivery.ts";
import { harnessLiveDelivery } from "./live-delivery-report.ts";
import type { ProcessProbe } from "./process-probe.ts";
import { RedeliverySchedule } from "./redelivery-schedule.ts";
import { checkSession } from "./session-check.ts";
import { SessionHeartbeats } from "./session-heartbeats.ts";
import { SupervisedWatch } from "./supervised-watch.ts";
import { TranscriptWake } from "./transcript-wake.ts";
import { WakeableWait } from "./wakeable-wait.ts";
import { WatchSupervision } from "./watch-supervision.ts";
import { WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";
import { errorCodeOf as codeOf } from "./watcher-error-code.ts";
import type { WatcherExit } from "./watcher-exit.ts";
import { writeWatcherNotice } from "./watcher-files.ts";
import type { WatcherLog } from "./watcher-log.ts";
import { WatcherStatusBoard } from "./watcher-status-board.ts";

const FATAL_NOTICE =
  "Brigade: message delivery stopped: this machine's team credential or configuration was refused; run `brigade team join` in your terminal, then send a prompt.";

/** What {@link WatcherLoop} runs with: the checked start-up values and the timing options. */
export interface WatcherLoopOptions {
  /** The allow-listed environment (the by-pid map and the registry are found through it). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Ends the watcher as SIGTERM does (no session close). */
  readonly signal?: AbortSignal;
  /** The clock, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** Liveness tick, ms (default 2,000). */
  readonly tickMs?: number;
  /** How often the transcript is read while posts wait for confirmation, ms (default 250). */
  readonly confirmPollMs?: number;
  /** Claude Code's argv for the gate's launch flags (default: read from the process). */
  readonly claudeArgv?: readonly string[] | undefined;
  /** Heartbeat interval, ms (default 30,000). */
  readonly heartbeatMs?: number;
  /** Cap on the closing `session close`, ms (default 3,000). */
  readonly closeTimeoutMs?: number;
  readonly backoff?: WatcherBackoff;
  /** Posts to the inbox socket (default {@link postToInbox}). */
  readonly post?: (options: InboxPostOptions) => Promise<InboxPostResult>;
  readonly layout: StateLayout;
  readonly map: ByPidMap;
  readonly uid: number;
  readonly log: WatcherLog;
  readonly probe: ProcessProbe;
  readonly token: string;
  readonly socketPath: string;
  readonly adapter: Adapter;
}

/** How often the watcher sweeps the uploads folder, ms. */
const UPLOADS_SWEEP_MS = 3_600_000;

/**
 * One running watcher (docs/41-watcher.md "The loop"); `runWatcher` builds it after taking the
 * pidfile and reading the map, and {@link run} resolves with how it ended (never throws). It only
 * wires the pieces, each with its own contract and tests — {@link SupervisedWatch} with
 * {@link WatchSupervision}, {@link SessionHeartbeats}, {@link RedeliverySchedule},
 * {@link InboxDelivery}, {@link checkSession}, {@link WatcherStatusBoard}, the inbound pipeline
 * and the injection pacer — to the interval timer, the adapter and the files.
 */
export class WatcherLoop {
  readonly #d: WatcherLoopOptions;
  readonly #now: () => number;
  readonly #tickMs: number;
  readonly #sessionId: string;
  readonly #pipeline: InboundPipeline;
  readonly #pacer: InjectionPacer;
  readonly #delivery: InboxDelivery;
  readonly #files: MessageFiles;
  /** How long received files are kept, seconds (the backend's message retention). */
  #uploadsRetention = DEFAULT_UPLOADS_RETENTION_SECONDS;
  /** When the uploads folder was last swept, ms (0: not yet). */
  #sweptAt = 0;
  readonly #heartbeats: SessionHeartbeats;
  readonly #redelivery: RedeliverySchedule;
  readonly #confirmations = new DeliveryConfirmations();
  /** Reads the transcript the moment it changes while posts wait: the poll is only the floor. */
  readonly #transcriptWake = new TranscriptWake(() => {
    if (this.#confirmations.pending > 0) this.#readTranscript(this.#transcriptPath);
  });
  readonly #reposts: MessageItem[] = [];
  readonly #transcript = new TranscriptUsageReader({
    onLine: (line) => this.#confirmations.observe(parseTranscriptDeliveryLine(line)),
    onGap: () => this.#confirmations.gap(),
  });
  readonly #argv: readonly string[] | undefined;
  #gate: InboundGateState = { open: true };
  #idleAt: number | undefined;
  /**
   * Wall-clock time a dialog was found holding one of our posts: nothing more is posted until a
   * post reaches the conversation (the user delivered it) or the user settings change after it.
   */
  #heldAt: number | undefined;
  /** Posts not yet seen admitted at the last look (see `DeliveryConfirmations.unadmitted`). */
  #unadmitted = 0;
  #transcriptPath: string | undefined;
  readonly #reporter: DispositionReporter;
  readonly #acks: AckBatcher;
  readonly #registry: string | undefined;
  readonly #post: (options: InboxPostOptions) => Promise<InboxPostResult>;
  readonly #done: Promise<void>;
  #finished: (() => void) | undefined;
  #running = true;
  #exit: WatcherExit | undefined;
  readonly #work = new WakeableWait();
  readonly #watch: SupervisedWatch;
  readonly #status: WatcherStatusBoard;
  #activity: Activity = "idle";
  #ticking = false;

  constructor(deps: WatcherLoopOptions) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
    this.#tickMs = deps.tickMs ?? 2_000;
    this.#sessionId = deps.map.brigade_session_id;
    this.#post = deps.post ?? postToInbox;
    this.#reporter = new DispositionReporter(deps.adapter, this.#sessionId, (code) =>
      deps.log.write("warn", "report_failed", { code }),
    );
    this.#acks = new AckBatcher({
      send: async (ids) => {
        await deps.adapter.messageAck(this.#sessionId, { message_ids: [...ids] });
      },
      onSent: (ids) => {
        for (const id of ids) deps.log.write("info", "ack_sent", { message_id: id });
      },
      onFailed: (ids, error) => {
        for (const id of ids) {
          deps.log.write("warn", "ack_failed", { message_id: id, code: codeOf(error) });
        }
        this.#redelivery.afterAckFailed(this.#now());
      },
    });
    this.#registry = registryFolder(deps.env);
    this.#transcriptPath = deps.map.transcript_path;
    this.#argv =
      "claudeArgv" in deps ? deps.claudeArgv : readClaudeArgv(String(deps.map.claude_pid));
    const backoff = deps.backoff ?? WATCHER_BACKOFF;
    this.#status = new WatcherStatusBoard({
      layout: deps.layout,
      claudePid: String(deps.map.claude_pid),
      sessionId: this.#sessionId,
      pid: process.pid,
      now: this.#now,
    });
    this.#watch = new SupervisedWatch({
      adapter: deps.adapter,
      sessionId: this.#sessionId,
      log: deps.log,
      now: this.#now,
      supervision: new WatchSupervision(backoff),
      running: () => this.#running,
      notice: (line) => this.#notice(line),
      onMessage: (envelope) => this.#offer(envelope),
      onLive: () => this.#status.set("live"),
      onRetrying: () => this.#status.set("retrying"),
    });
    this.#redelivery = new RedeliverySchedule(10 * this.#tickMs);
    this.#pipeline = openSessionInbound({
      map: deps.map,
      layout: deps.layout,
      uid: deps.uid,
      now: this.#now,
      delivery: "socket",
    });
    this.#heartbeats = new SessionHeartbeats({
      adapter: deps.adapter,
      sessionId: this.#sessionId,
      map: deps.map,
      log: deps.log,
      now: this.#now,
      ...(deps.heartbeatMs === undefined ? {} : { intervalMs: deps.heartbeatMs }),
      backoff,
      transcript: this.#transcript,
      policy: () => this.#pipeline.policy,
      running: () => this.#running,
      // A resumed session is open again: a retry wait of the message watch ends at once.
      onResumed: () => {
        if (this.#status.state === "retrying") this.#watch.retryNow();
      },
      liveDelivery: () => harnessLiveDelivery(this.#d.socketPath, gateClosedLastingly(this.#gate)),
      // A release on the dashboard counts as one from the person's terminal.
      onReleased: (ids) => this.#release(ids, "dashboard"),
    });
    this.#pacer = successorPacer(this.#now());
    const files = new MessageFiles({
      adapter: deps.adapter,
      sessionId: this.#sessionId,
      project: deps.map.checkout,
      log: (level, event, fields) => deps.log.write(level, event, fields),
    });
    this.#files = files;
    this.#delivery = new InboxDelivery({
      pipeline: this.#pipeline,
      pacer: this.#pacer,
      settleFiles: () => files.settleHead(this.#pipeline),
      post: (content) => this.#post({ socketPath: deps.socketPath, token: deps.token, content }),
      log: deps.log,
      now: this.#now,
      tickMs: this.#tickMs,
      work: this.#work,
      running: () => this.#running,
      onPostFailed: () => this.#redelivery.afterPostFailed(this.#now()),
      onPosted: (item, written) => {
        this.#confirmations.posted(item, this.#now(), { written });
        this.#settleConfirmations();
      },
      whereIs: (item) => this.#confirmations.whereIs(item),
      reposts: {
        peek: () => this.#nextRepost(),
        shift: () => {
          const item = this.#reposts.shift();
          // Its wait starts again now: while the repost is being written it is not missing.
          if (item !== undefined) this.#confirmations.posted(item, this.#now(), { written: false });
          return item;
        },
      },
      gateOpen: () => this.#gate.open && this.#heldAt === undefined,
      // Without a transcript nothing can show a post admitted (docs/41-watcher.md).
      admitted: () => this.#transcriptPath === undefined || this.#confirmations.unadmitted === 0,
    });
    this.#done = new Promise((resolve) => {
      this.#finished = resolve;
    });
  }

  async run(): Promise<WatcherExit> {
    const { log } = this.#d;
    log.write("info", "watcher_started", {
      session_id: this.#sessionId,
      socket: this.#d.socketPath === "" ? "none" : "set",
      policy: this.#pipeline.policy,
    });
    this.#status.write();
    const abort = (): void => this.#stop({ reason: "signal", status: 0 });
    if (this.#d.signal?.aborted === true) abort();
    this.#d.signal?.addEventListener("abort", abort, { once: true });
    try {
      const { capabilities, retention } = await this.#d.adapter.describe();
      this.#heartbeats.enable({
        model: capabilities.includes("session.model"),
        contextUsedTokens: capabilities.includes("session.context_used_tokens"),
        liveDelivery: capabilities.includes("session.live_delivery"),
      });
      const kept = Math.max(
        retention?.unacked_message_seconds ?? 0,
        retention?.acked_message_seconds ?? 0,
      );
      if (Number.isFinite(kept) && kept > 0) this.#uploadsRetention = kept;
    } catch {
      // without capabilities, the transcript values are simply not sent
    }
    const timer = setInterval(() => void this.#tick(), this.#tickMs);
    const confirmTimer = setInterval(() => {
      if (this.#confirmations.pending > 0) this.#readTranscript(this.#transcriptPath);
    }, this.#d.confirmPollMs ?? 250);
    this.#transcriptWake.follow(this.#transcriptPath);
    const tasks = [this.#delivery.run()];
    if (this.#d.socketPath !== "") tasks.push(this.#supervise());
    else log.write("warn", "watcher_no_socket");
    void this.#tick();
    await this.#done;
    clearInterval(timer);
    clearInterval(confirmTimer);
    this.#transcriptWake.close();
    this.#d.signal?.removeEventListener("abort", abort);
    this.#watch.stop();
    this.#work.wake();
    await Promise.allSettled(tasks);
    // What was injected is acknowledged before the session closes (each call has its own timeout).
    await this.#settled(this.#acks.settled(), this.#d.closeTimeoutMs ?? 3_000);
    const exit = this.#exit ?? { reason: "signal", status: 0 };
    if (
      exit.reason === "claude_gone" ||
      exit.reason === "map_gone" ||
      exit.reason === "map_changed"
    ) {
      // A heartbeat's resume still in flight would re-open the session after the close.
      await this.#settled(this.#heartbeats.task, this.#d.closeTimeoutMs ?? 3_000);
      await this.#closeSession();
    }
    // The session goes on without us: senders must not keep reading "live". A signal is left
    // out: its sender takes over (SessionEnd closes the session, a respawn's successor reports).
    if (exit.reason === "fatal_error") {
      await this.#heartbeats.reportStopped(this.#d.closeTimeoutMs ?? 3_000);
    }
    if (exit.reason === "inbound_gate") {
      await this.#heartbeats.reportStopped(this.#d.closeTimeoutMs ?? 3_000, "inbound_gate");
    }
    this.#status.set("stopped");
    log.write("info", "watcher_stopped", { reason: exit.reason, status: exit.status });
    return exit;
  }

  /** Waits for `task`, at most `ms`. */
  async #settled(task: Promise<void>, ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([task, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  #stop(exit: WatcherExit): void {
    if (!this.#running) return;
    this.#running = false;
    this.#exit = exit;
    this.#finished?.();
  }

  async #closeSession(): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#d.closeTimeoutMs ?? 3_000);
    try {
      await this.#d.adapter.sessionClose(this.#sessionId, { signal: controller.signal });
      this.#d.log.write("info", "session_closed");
    } catch (error) {
      this.#d.log.write("warn", "session_close_failed", { code: codeOf(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs the supervised watch; a fatal error stops the watcher with its notice. */
  async #supervise(): Promise<void> {
    const fatal = await this.#watch.run();
    if (fatal === undefined) return;
    this.#notice(FATAL_NOTICE);
    this.#stop({ reason: "fatal_error", status: ERROR_EXIT_STATUS[fatal], code: fatal });
  }

  #notice(line: string): void {
    writeWatcherNotice(this.#d.layout, String(this.#d.map.claude_pid), line);
  }

  #offer(envelope: unknown): void {
    const result = this.#pipeline.offer(envelope);
    const fields: Record<string, string> = { outcome: result.outcome };
    if (result.outcome === "rejected") fields.reason = result.reason;
    else fields.message_id = result.messageId;
    this.#d.log.write(result.outcome === "rejected" ? "warn" : "info", "message_offered", fields);
    if (result.ack) this.#ack(result.messageId);
    if (result.outcome === "held" || result.outcome === "refused") {
      // the sender reads this as the message's state (`brigade sent`)
      this.#reporter.note(result.outcome, result.messageId);
      void this.#reporter.flush();
    }
    if (result.outcome === "queued" && result.evicted !== undefined) {
      this.#d.log.write("info", "message_set_aside", { message_id: result.evicted });
    }
    this.#redelivery.afterOffer(result, this.#now());
    if (result.outcome === "queued") this.#work.wake();
  }

  /**
   * Acknowledges through `message ack` (batched, one call at a time: `AckBatcher`), never the
   * watch's `{type: "ack"}` command: a command's failure arrives only as a later `error` event on
   * the stream, with nothing tying it to this message, so a failed ack would pass for a sent one
   * and never be retried. An ack the full batcher refuses is left on the server and fetched again.
   */
  #ack(messageId: string): void {
    if (this.#acks.add(messageId)) return;
    this.#d.log.write("warn", "ack_deferred", { message_id: messageId });
    this.#redelivery.afterAckFailed(this.#now());
  }

  /**
   * Removes received files older than the retention window, at the first tick and then hourly
   * (docs/15-attachments.md "Retention").
   */
  #sweepUploads(): void {
    const now = this.#now();
    if (this.#sweptAt !== 0 && now - this.#sweptAt < UPLOADS_SWEEP_MS) return;
    this.#sweptAt = now;
    this.#files.sweep(now, this.#uploadsRetention);
  }

  // ---- the liveness tick ------------------------------------------------------------------

  async #tick(): Promise<void> {
    if (this.#ticking || !this.#running) return;
    this.#ticking = true;
    try {
      await this.#tickOnce();
    } catch (error) {
      // A tick runs unawaited: an escaped error would end the process on an unhandled rejection.
      this.#d.log.write("error", "tick_failed", {
        error: error instanceof Error ? error.name : "unknown",
      });
    } finally {
      this.#ticking = false;
    }
  }

  async #tickOnce(): Promise<void> {
    const { layout, log, map, probe, uid } = this.#d;
    const claudePid = String(map.claude_pid);
    const read = checkSession({
      probe,
      claudePid: map.claude_pid,
      sessionId: this.#sessionId,
      env: this.#d.env,
      uid,
      log,
    });
    if (!read.ok) {
      this.#stop({ reason: read.reason, status: 0 });
      return;
    }
    this.#sweepUploads();
    if (read.map.inbound !== this.#pipeline.policy) {
      const withdrawn = this.#pipeline.setPolicy(read.map.inbound);
      log.write("info", "policy_changed", {
        policy: read.map.inbound,
        withdrawn: withdrawn.length,
      });
      if (read.map.inbound !== "accept") {
        const outcome = read.map.inbound === "hold" ? "held" : "refused";
        for (const id of withdrawn) this.#reporter.note(outcome, id);
        void this.#reporter.flush();
      }
      // Our server sends a message once per watch connection: what was refused or held before
      // comes back only if we fetch it.
      if (read.map.inbound === "accept") this.#redelivery.at(this.#now());
    }
    this.#transcriptPath = read.map.transcript_path;
    if (this.#running) this.#transcriptWake.follow(this.#transcriptPath);
    this.#readTranscript(this.#transcriptPath);
    const now = this.#now();
    const activity = readRegistryActivity(this.#registry, claudePid);
    this.#pacer.observeActivity(now, activity);
    if (activity === "idle") this.#idleAt = now;
    if (this.#checkGate(read.map.permission_mode)) return;
    this.#takeMissing(now);
    if (activity !== this.#activity) {
      this.#activity = activity;
      log.write("debug", "activity", { activity });
    }
    this.#release(consumeReleaseRequests(layout, this.#sessionId, uid), "terminal");
    this.#work.wake();
    this.#heartbeats.tick(now, this.#activity);
    // Not awaited: a slow server must never hold up the next liveness check.
    if (this.#redelivery.takeDue(now, this.#pipeline.queued)) void this.#redeliver();
  }

  /**
   * Releases held messages the person released (`brigade inbox release` in their terminal, or the
   * dashboard through a heartbeat's answer): only held ids count; a released message whose
   * envelope is not in memory is fetched again.
   */
  #release(ids: readonly string[], from: "terminal" | "dashboard"): void {
    if (ids.length === 0) return;
    const before = this.#pipeline.queued;
    const count = this.#pipeline.release([...ids]);
    if (count === 0) return;
    this.#d.log.write("info", "released", { count, from });
    if (this.#pipeline.queued - before < count) this.#redelivery.at(this.#now());
    this.#work.wake();
  }

  /**
   * Whether Claude Code's gate lets our posts through now (docs/41-watcher.md "The gate rule"):
   * the mode the transcript last named, else the map's, else the launch flags. A change is
   * logged. Closed because the session's mode bypasses, the watcher stands aside once nothing it
   * posted awaits the transcript: it stops (`inbound_gate`) with one notice, and the hooks deliver at prompts
   * and between tool calls, which needs no change to Claude Code's settings. Returns whether it
   * stopped.
   */
  #checkGate(mapMode: string): boolean {
    const gate = inboundGateOpen({
      claudeConfigDir: claudeConfigDir(this.#d.env),
      cwd: "",
      permissionMode: this.#confirmations.permissionMode ?? mapMode,
      argv: this.#argv,
      // The settle time is Claude Code's, on the wall clock, whatever clock the loop runs on.
      now: Date.now(),
    });
    if (gate.open !== this.#gate.open) {
      this.#d.log.write("info", gate.open ? "gate_open" : "gate_closed", {
        ...(gate.open ? {} : { reason: gate.reason }),
      });
    }
    this.#gate = gate;
    const dir = claudeConfigDir(this.#d.env);
    if (this.#heldAt !== undefined && dir !== undefined) {
      // The user changed their settings since the hold (e.g. Claude Code's "always deliver").
      const changedAt = modifiedAt(join(dir, "settings.json"));
      if (changedAt !== undefined && changedAt > this.#heldAt) this.#heldAt = undefined;
    }
    // Only a known bypassing mode: a settling setting opens by itself within seconds, and a
    // launch that only may bypass waits for the first prompt to name the mode.
    if (!gate.open && gate.reason === "bypass" && this.#confirmations.pending === 0) {
      this.#notice(GATE_CLOSED_NOTICE);
      this.#stop({ reason: "inbound_gate", status: 0 });
      return true;
    }
    if (gate.open) this.#work.wake();
    return false;
  }

  /**
   * The repost to write next, if any. The transcript is read first: a post recorded late, or
   * admitted meanwhile, is acked or waited for (logged `post_late`), never posted again.
   */
  #nextRepost(): MessageItem | undefined {
    if (this.#reposts.length === 0) return undefined;
    this.#readTranscript(this.#transcriptPath);
    for (;;) {
      const first = this.#reposts[0];
      if (first === undefined) return undefined;
      if (this.#confirmations.tracks(first) && this.#confirmations.whereIs(first) === "unknown") {
        return first;
      }
      this.#reposts.shift();
      this.#d.log.write("info", "post_late", { message_id: first.message.message_id });
    }
  }

  /** Missing posts (docs/41-watcher.md "Acked means in the conversation"): post again or give up. */
  #takeMissing(now: number): void {
    const missing = this.#confirmations.takeMissing(now, this.#idleAt);
    for (const item of missing.repost) {
      if (this.#reposts.includes(item)) continue;
      this.#d.log.write("warn", "post_missing", { message_id: item.message.message_id });
      this.#reposts.push(item);
    }
    for (const item of missing.givenUp) {
      this.#pipeline.done(item, "unconfirmed");
      this.#d.log.write("warn", "delivery_unconfirmed", { message_id: item.message.message_id });
      this.#redelivery.at(now + CONFIRMATION_LIMITS.maxWaitMs);
    }
    if (missing.givenUp.length > 0) this.#notice(UNCONFIRMED_NOTICE);
    if (missing.repost.length > 0) this.#work.wake();
  }

  /**
   * Acks what the transcript shows in the conversation, reports what Claude Code holds for its
   * dialog, and tells the pacer how deep Claude Code's queue is.
   */
  #settleConfirmations(): void {
    const confirmed = this.#confirmations.takeConfirmed();
    if (confirmed.length > 0) this.#heldAt = undefined;
    for (const item of confirmed) {
      const done = this.#pipeline.done(item);
      this.#d.log.write("info", "in_conversation", { message_id: item.message.message_id });
      if (!done.ack) continue;
      this.#status.delivered();
      this.#ack(done.messageId);
    }
    const held = this.#confirmations.takeNewlyHeld();
    for (const item of held) {
      this.#d.log.write("warn", "post_held", { message_id: item.message.message_id });
    }
    if (held.length > 0) {
      this.#heldAt = Date.now();
      this.#notice(HELD_BY_DIALOG_NOTICE);
    }
    // The delivery loop waits for an earlier post's admission: it may post again.
    const unadmitted = this.#confirmations.unadmitted;
    if (unadmitted === 0 && this.#unadmitted > 0) this.#work.wake();
    this.#unadmitted = unadmitted;
    const depth = this.#confirmations.settledQueueDepth;
    // Without a transcript path nothing tells the depth: the registry's idle status alone lifts it.
    if (depth !== undefined && this.#transcriptPath !== undefined)
      this.#pacer.observeClaudeQueue(this.#now(), depth);
  }

  /** Reads the transcript's new bytes; only a restart is logged (never a path or its text). */
  #readTranscript(path: string | undefined): void {
    const outcome = this.#transcript.read(path);
    this.#settleConfirmations();
    if (outcome.restarted !== undefined) {
      // A replaced file is another inode: the next tick watches the new one.
      this.#transcriptWake.close();
      this.#d.log.write("info", "transcript_restarted", { reason: outcome.restarted });
    }
    if (outcome.skippedBytes > 0) {
      this.#d.log.write("debug", "transcript_skipped", { bytes: outcome.skippedBytes });
    }
  }

  /** Fetches the oldest unacknowledged messages once and offers them again. */
  async #redeliver(): Promise<void> {
    try {
      if (this.#d.socketPath === "") return;
      const result = await this.#d.adapter.messageReceive(this.#sessionId, {
        limit: DEFAULT_RECEIVE_LIMIT,
      });
      if (!this.#running) return;
      const messages: readonly unknown[] = result.messages;
      // Before the offers: a sender whose waiting list overflowed gets its oldest listed first.
      this.#pipeline.refetched(fetchedMessages(messages), messages.length < DEFAULT_RECEIVE_LIMIT);
      for (const message of messages) this.#offer(message);
    } catch (error) {
      this.#d.log.write("warn", "redrive_failed", { code: codeOf(error) });
    } finally {
      this.#redelivery.fetchDone();
    }
  }
}

/** A file's modification time, ms; `undefined` when it cannot be read. Never throws. */
function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
