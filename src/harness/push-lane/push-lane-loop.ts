import {
  type Adapter,
  DEFAULT_RECEIVE_LIMIT,
  ERROR_EXIT_STATUS,
  type LiveDelivery,
} from "../../protocol/index.ts";
import { DispositionReporter } from "../adapter/index.ts";
import { DEFAULT_UPLOADS_RETENTION_SECONDS, MessageFiles } from "../attachments/index.ts";
import type { DeliveryDoor, DoorContext, DoorOpening, DoorStep } from "../host-session/index.ts";
import { fetchedMessages, type InboundItem, type InboundPipeline } from "../inbound/index.ts";
import { sentinelFrame, sessionWorkspace } from "../mcp/index.ts";
import { InjectionPacer } from "../pacing/index.ts";
import {
  type ByPidMap,
  consumeReleaseRequests,
  openSessionInbound,
  type StateLayout,
} from "../state/index.ts";
import {
  AckBatcher,
  checkSession,
  errorCodeOf,
  type ProcessProbe,
  RedeliverySchedule,
  SessionHeartbeats,
  SupervisedWatch,
  WATCHER_BACKOFF,
  WakeableWait,
  type WatcherBackoff,
  type WatcherLog,
  WatcherStatusBoard,
  WatchSupervision,
} from "../watcher/index.ts";
import type { PushLaneExit } from "./push-lane-exit.ts";

/** How often a lane asks its door to confirm what it posted, ms (docs/49-hosts.md). */
export const PUSH_LANE_CONFIRM_MS = 1_000;

/** Tokens a lane's pacer starts with (of 25), as a successor watcher's. */
const SUCCESSOR_TOKENS = 12;

/** How long a lane waits before asking a paced door again, ms. */
const PACED_WAIT_MS = 250;

/** What {@link PushLaneLoop} runs with: the checked start-up values and the timing options. */
export interface PushLaneLoopOptions {
  readonly adapter: Adapter;
  /** The session's by-pid map, as the session-start hook wrote it. */
  readonly map: ByPidMap;
  readonly layout: StateLayout;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly uid: number;
  readonly log: WatcherLog;
  readonly probe: ProcessProbe;
  /** The `harness` a resume registers (the client's). */
  readonly harness: string;
  /** Brigade's configuration folder of the session's team (the origin workspace's server). */
  readonly configDir: string;
  /** Opens the client's door with the lane's context (`HostClient.openDoor`). */
  readonly openDoor: (ctx: DoorContext) => Promise<DoorOpening>;
  /** Ends the lane as SIGTERM does (no session close). */
  readonly signal?: AbortSignal;
  /** The clock, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** Liveness tick, ms (default 2,000). */
  readonly tickMs?: number;
  /** How often the door confirms, ms (default {@link PUSH_LANE_CONFIRM_MS}). */
  readonly confirmMs?: number;
  /** Heartbeat interval, ms (default 30,000). */
  readonly heartbeatMs?: number;
  /** Cap on the closing calls, ms (default 3,000). */
  readonly closeTimeoutMs?: number;
  readonly backoff?: WatcherBackoff;
}

/**
 * The shared push lane of one bound host session (docs/49-hosts.md, "The push lane"), with no
 * client in it: the session's message watch (`SupervisedWatch`) feeds its inbound pipeline
 * (`openSessionInbound`: server order per sender, dedupe, the person's policy), the client's
 * {@link DeliveryDoor} is stepped whenever work may be there and confirmed every second, the
 * door's acks go out in batches (`AckBatcher`), held and refused reach the sender
 * (`DispositionReporter`), unacked messages are fetched again (`RedeliverySchedule`), and
 * heartbeats say `live_delivery` `yes` (or `no` `person_review` when the client holds every
 * message for its person). A 2 s tick stops the lane when the client process is gone or the
 * by-pid map no longer names the session (then the session is closed). {@link run} resolves with
 * how it ended and never throws.
 *
 * @example const exit = await new PushLaneLoop(options).run();
 */
export class PushLaneLoop {
  readonly #o: PushLaneLoopOptions;
  readonly #now: () => number;
  readonly #tickMs: number;
  readonly #sessionId: string;
  readonly #pipeline: InboundPipeline;
  readonly #pacer: InjectionPacer;
  readonly #reporter: DispositionReporter;
  readonly #acks: AckBatcher;
  readonly #redelivery: RedeliverySchedule;
  readonly #heartbeats: SessionHeartbeats;
  readonly #watch: SupervisedWatch;
  readonly #status: WatcherStatusBoard;
  readonly #work = new WakeableWait();
  #door: DeliveryDoor | undefined;
  #heldForPerson = false;
  #running = true;
  #exit: PushLaneExit | undefined;
  #finished: (() => void) | undefined;
  readonly #done: Promise<void>;
  /** A message's files, received before the door may post it (docs/15-attachments.md). */
  readonly #files: MessageFiles;
  /** How long received files are kept, seconds (the backend's message retention). */
  #uploadsRetention = DEFAULT_UPLOADS_RETENTION_SECONDS;
  /** When the uploads folder was last swept, ms (0: not yet). */
  #sweptAt = 0;
  #ticking = false;

  constructor(options: PushLaneLoopOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#tickMs = options.tickMs ?? 2_000;
    this.#sessionId = options.map.brigade_session_id;
    const { adapter, log } = options;
    this.#files = new MessageFiles({
      adapter,
      sessionId: this.#sessionId,
      project: options.map.checkout,
      env: options.env,
      log: (level, event, fields) => log.write(level, event, fields),
    });
    this.#reporter = new DispositionReporter(adapter, this.#sessionId, (code) =>
      log.write("warn", "report_failed", { code }),
    );
    this.#redelivery = new RedeliverySchedule(10 * this.#tickMs);
    this.#acks = new AckBatcher({
      send: async (ids) => {
        await adapter.messageAck(this.#sessionId, { message_ids: [...ids] });
      },
      onSent: (ids) => {
        for (const id of ids) log.write("info", "ack_sent", { message_id: id });
      },
      onFailed: (ids, error) => {
        for (const id of ids) {
          log.write("warn", "ack_failed", { message_id: id, code: errorCodeOf(error) });
        }
        this.#redelivery.afterAckFailed(this.#now());
      },
    });
    this.#pipeline = openSessionInbound({
      map: options.map,
      layout: options.layout,
      uid: options.uid,
      now: this.#now,
      delivery: "socket",
    });
    // A predecessor lane may have posted moments ago: the bucket starts half full, as the
    // watcher's successor's does. Nothing of ours waits inside the client at a start the door
    // could not see (its own outstanding count starts at zero and the door reports it).
    this.#pacer = new InjectionPacer({ now: this.#now(), initialTokens: SUCCESSOR_TOKENS });
    const backoff = options.backoff ?? WATCHER_BACKOFF;
    this.#status = new WatcherStatusBoard({
      layout: options.layout,
      claudePid: String(options.map.claude_pid),
      sessionId: this.#sessionId,
      pid: process.pid,
      now: this.#now,
    });
    this.#watch = new SupervisedWatch({
      adapter,
      sessionId: this.#sessionId,
      log,
      now: this.#now,
      supervision: new WatchSupervision(backoff),
      running: () => this.#running,
      // No notice file here: a client session's person reads the lane's state in brigade sessions.
      notice: () => log.write("info", "watch_notice"),
      onMessage: (envelope) => this.#offer(envelope),
      onLive: () => this.#status.set("live"),
      onRetrying: () => this.#status.set("retrying"),
    });
    this.#heartbeats = new SessionHeartbeats({
      adapter,
      sessionId: this.#sessionId,
      map: options.map,
      log,
      now: this.#now,
      ...(options.heartbeatMs === undefined ? {} : { intervalMs: options.heartbeatMs }),
      backoff,
      transcript: { model: undefined, contextUsedTokens: undefined },
      policy: () => this.#pipeline.policy,
      running: () => this.#running,
      onResumed: () => {
        if (this.#status.state === "retrying") this.#watch.retryNow();
      },
      liveDelivery: () => this.#liveDelivery(),
      onReleased: (ids) => this.#release(ids, "dashboard"),
      harness: options.harness,
    });
    this.#done = new Promise((resolve) => {
      this.#finished = resolve;
    });
  }

  /**
   * Releases held messages the person named, from their terminal (`brigade inbox release`) or
   * the dashboard (a heartbeat's `released_message_ids`): each goes back into the pipeline in
   * server order; one re-fetch when some were not held here any more.
   */
  #release(ids: readonly string[], from: "terminal" | "dashboard"): void {
    if (ids.length === 0) return;
    const before = this.#pipeline.queued;
    const count = this.#pipeline.release([...ids]);
    if (count === 0) return;
    this.#o.log.write("info", "released", { count, from });
    if (this.#pipeline.queued - before < count) this.#redelivery.at(this.#now());
    this.#work.wake();
  }

  /** The door's context: what a client's door is given for this session. */
  #context(): DoorContext {
    const { log } = this.#o;
    const workspace = sessionWorkspace({ map: this.#o.map, configDir: this.#o.configDir });
    const pipeline = this.#pipeline;
    const lane = {
      peek: () => pipeline.peek(),
      next: () => pipeline.next(),
      // A message given back unacked comes again only by a fetch: plan one.
      done: (item: InboundItem, error?: unknown) => {
        if (error !== undefined) this.#redelivery.afterPostFailed(this.#now());
        return error === undefined ? pipeline.done(item) : pipeline.done(item, error);
      },
    };
    return {
      pipeline: lane,
      settleFiles: () =>
        this.#files.settleHead({
          ...lane,
          provideFiles: (messageId, files) => pipeline.provideFiles(messageId, files),
        }),
      pacer: this.#pacer,
      textOf: (item) => sentinelFrame(item.frame, item.message.sender.session_id, workspace),
      report: (state, messageId) => {
        this.#reporter.note(state, messageId);
        void this.#reporter.flush();
      },
      ack: (messageId) => {
        this.#status.delivered();
        this.#ack(messageId);
      },
      log: (level, event, fields) => log.write(level, event, fields),
      now: this.#now,
    };
  }

  #liveDelivery(): LiveDelivery {
    return this.#heldForPerson
      ? { live_delivery: "no", live_delivery_reason: "person_review" }
      : { live_delivery: "yes" };
  }

  /** Runs the lane until it stops; resolves with how it ended. Never throws. */
  async run(): Promise<PushLaneExit> {
    const { log } = this.#o;
    const opened = await this.#openDoor();
    if (!opened.ok) {
      log.write("warn", "push_lane_no_door", { reason: opened.reason });
      return { reason: "no_door", status: 0 };
    }
    const door = opened.door;
    this.#door = door;
    this.#heldForPerson = opened.heldForPerson;
    log.write("info", "push_lane_started", {
      session_id: this.#sessionId,
      held_for_person: opened.heldForPerson,
      policy: this.#pipeline.policy,
    });
    this.#status.write();
    const abort = (): void => this.#stop({ reason: "signal", status: 0 });
    if (this.#o.signal?.aborted === true) abort();
    this.#o.signal?.addEventListener("abort", abort, { once: true });
    try {
      const { capabilities, retention } = await this.#o.adapter.describe();
      this.#heartbeats.enable({
        model: false,
        contextUsedTokens: false,
        liveDelivery: capabilities.includes("session.live_delivery"),
      });
      const kept = Math.max(
        retention?.unacked_message_seconds ?? 0,
        retention?.acked_message_seconds ?? 0,
      );
      if (Number.isFinite(kept) && kept > 0) this.#uploadsRetention = kept;
    } catch {
      // without capabilities, live delivery is simply not said
    }
    const tick = setInterval(() => void this.#tick(), this.#tickMs);
    const confirm = setInterval(
      () => void this.#confirm(),
      this.#o.confirmMs ?? PUSH_LANE_CONFIRM_MS,
    );
    const tasks = [this.#deliver(door), this.#supervise()];
    void this.#tick();
    await this.#done;
    clearInterval(tick);
    clearInterval(confirm);
    this.#o.signal?.removeEventListener("abort", abort);
    this.#watch.stop();
    this.#work.wake();
    await Promise.allSettled(tasks);
    await door.confirm().catch(() => {});
    await door.close().catch(() => {});
    const cap = this.#o.closeTimeoutMs ?? 3_000;
    await settled(this.#acks.settled(), cap);
    const exit = this.#exit ?? { reason: "signal", status: 0 };
    if (
      exit.reason === "host_gone" ||
      exit.reason === "map_gone" ||
      exit.reason === "map_changed"
    ) {
      await settled(this.#heartbeats.task, cap);
      await this.#closeSession(cap);
    }
    if (exit.reason === "fatal_error") await this.#heartbeats.reportStopped(cap);
    this.#status.set("stopped");
    log.write("info", "push_lane_stopped", { reason: exit.reason, status: exit.status });
    return exit;
  }

  async #openDoor(): Promise<DoorOpening> {
    try {
      return await this.#o.openDoor(this.#context());
    } catch {
      return { ok: false, reason: "door_failed" };
    }
  }

  #stop(exit: PushLaneExit): void {
    if (!this.#running) return;
    this.#running = false;
    this.#exit = exit;
    this.#finished?.();
  }

  /** Steps the door whenever work may be there: at once after a post, else at a wake or tick. */
  async #deliver(door: DeliveryDoor): Promise<void> {
    while (this.#running) {
      let step: DoorStep;
      try {
        step = await door.step();
      } catch {
        step = "failed";
      }
      if (!this.#running) return;
      if (step === "posted") continue;
      if (step === "failed") this.#redelivery.afterPostFailed(this.#now());
      await this.#work.wait(step === "paced" ? PACED_WAIT_MS : this.#tickMs);
    }
  }

  async #confirm(): Promise<void> {
    const door = this.#door;
    if (door === undefined) return;
    // The pacer trusts a door's count of waiting posts only from `idleSettleMs` after the last
    // post, and a door that confirms sooner has nothing out by then: it is asked on until the
    // pacer has seen that, or its outstanding count would only grow and stop the lane at its cap.
    if (door.outstanding === 0 && this.#pacer.outstanding === 0) return;
    try {
      await door.confirm();
    } catch {
      // a door never throws; one that does is asked again at the next second
    }
    this.#work.wake();
  }

  /** Runs the supervised watch; a refused credential stops the lane. */
  async #supervise(): Promise<void> {
    const fatal = await this.#watch.run();
    if (fatal === undefined) return;
    this.#stop({ reason: "fatal_error", status: ERROR_EXIT_STATUS[fatal], code: fatal });
  }

  #offer(envelope: unknown): void {
    const result = this.#pipeline.offer(envelope);
    const fields: Record<string, string> = { outcome: result.outcome };
    if (result.outcome === "rejected") fields.reason = result.reason;
    else fields.message_id = result.messageId;
    this.#o.log.write(result.outcome === "rejected" ? "warn" : "info", "message_offered", fields);
    if (result.ack) this.#ack(result.messageId);
    if (result.outcome === "held" || result.outcome === "refused") {
      this.#reporter.note(result.outcome, result.messageId);
      void this.#reporter.flush();
    }
    this.#redelivery.afterOffer(result, this.#now());
    if (result.outcome === "queued") this.#work.wake();
  }

  #ack(messageId: string): void {
    if (this.#acks.add(messageId)) return;
    this.#o.log.write("warn", "ack_deferred", { message_id: messageId });
    this.#redelivery.afterAckFailed(this.#now());
  }

  async #tick(): Promise<void> {
    if (this.#ticking || !this.#running) return;
    this.#ticking = true;
    try {
      this.#tickOnce();
    } catch (error) {
      this.#o.log.write("error", "tick_failed", {
        error: error instanceof Error ? error.name : "unknown",
      });
    } finally {
      this.#ticking = false;
    }
  }

  #tickOnce(): void {
    const { layout, log, map, probe, uid } = this.#o;
    // Received files older than the retention window go, at the first tick and then hourly.
    if (this.#sweptAt === 0 || this.#now() - this.#sweptAt >= 3_600_000) {
      this.#sweptAt = this.#now();
      this.#files.sweep(this.#sweptAt, this.#uploadsRetention);
    }
    const read = checkSession({
      probe,
      claudePid: map.claude_pid,
      sessionId: this.#sessionId,
      env: this.#o.env,
      uid,
      log,
    });
    if (!read.ok) {
      this.#stop({
        reason: read.reason === "claude_gone" ? "host_gone" : read.reason,
        status: 0,
      });
      return;
    }
    const now = this.#now();
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
      if (read.map.inbound === "accept") this.#redelivery.at(now);
    }
    this.#release(consumeReleaseRequests(layout, this.#sessionId, uid), "terminal");
    this.#work.wake();
    // The lane cannot tell a busy turn from an idle one: the hooks say the activity.
    this.#heartbeats.tick(now);
    if (this.#redelivery.takeDue(now, this.#pipeline.queued)) void this.#redeliver();
  }

  /** Fetches the oldest unacknowledged messages once and offers them again. */
  async #redeliver(): Promise<void> {
    try {
      const result = await this.#o.adapter.messageReceive(this.#sessionId, {
        limit: DEFAULT_RECEIVE_LIMIT,
      });
      if (!this.#running) return;
      const messages: readonly unknown[] = result.messages;
      this.#pipeline.refetched(fetchedMessages(messages), messages.length < DEFAULT_RECEIVE_LIMIT);
      for (const message of messages) this.#offer(message);
    } catch (error) {
      this.#o.log.write("warn", "redrive_failed", { code: errorCodeOf(error) });
    } finally {
      this.#redelivery.fetchDone();
    }
  }

  async #closeSession(cap: number): Promise<void> {
    try {
      await this.#o.adapter.sessionClose(this.#sessionId, { signal: AbortSignal.timeout(cap) });
      this.#o.log.write("info", "session_closed");
    } catch (error) {
      this.#o.log.write("warn", "session_close_failed", { code: errorCodeOf(error) });
    }
  }
}

/** Waits for `task`, at most `ms`. */
async function settled(task: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([task, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
