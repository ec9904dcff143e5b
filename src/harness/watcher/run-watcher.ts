import {
  type Activity,
  type Adapter,
  ERROR_EXIT_STATUS,
  type ErrorCode,
} from "../../protocol/index.ts";
import {
  type HarnessAdapterTarget,
  harnessConfigDir,
  openHarnessAdapter,
} from "../adapter/index.ts";
import {
  type InboxPostOptions,
  type InboxPostResult,
  isClaudePid,
  messagingSocketFromEnv,
  messagingToken,
  postToInbox,
  readRegistryActivity,
  registryFolder,
  TranscriptUsageReader,
} from "../claude-code/index.ts";
import { InboundPipeline } from "../inbound/index.ts";
import type { InjectionPacer } from "../pacing/index.ts";
import {
  type ByPidMap,
  consumeReleaseRequests,
  FileSeenStore,
  pendingFileStore,
  readByPidMap,
  readPendingRecords,
  resolveStateDir,
  type StateLayout,
  sha256Hex,
  stateLayout,
} from "../state/index.ts";
import { watcherVersion } from "./ensure-watcher.ts";
import { InboxDelivery, successorPacer } from "./inbox-delivery.ts";
import { type ProcessProbe, systemProcessProbe } from "./process-probe.ts";
import { RedeliverySchedule } from "./redelivery-schedule.ts";
import { SessionHeartbeats } from "./session-heartbeats.ts";
import { SupervisedWatch } from "./supervised-watch.ts";
import { WakeableWait } from "./wakeable-wait.ts";
import { WatchSupervision } from "./watch-supervision.ts";
import { WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";
import { errorCodeOf as codeOf } from "./watcher-error-code.ts";
import {
  acquirePidfile,
  deletePidfileIfNames,
  tokenSha256,
  writeWatcherNotice,
} from "./watcher-files.ts";
import { fileWatcherLog, type WatcherLog } from "./watcher-log.ts";
import { WatcherStatusBoard } from "./watcher-status-board.ts";

/**
 * Why {@link runWatcher} returned: `claude_gone` (Claude Code's pid is dead, a zombie or reused),
 * `map_gone` (the by-pid map is missing or unreadable), `map_changed` (it names another Brigade
 * session), `signal` (SIGTERM / SIGINT, or the caller's abort), `already_running` (a live watcher
 * holds the pidfile), `fatal_error` (the watch failed with `unauthenticated`, `unauthorized`,
 * `protocol_mismatch` or `config`), `not_in_session` (no valid `--claude-pid` / `CLAUDE_PID` or
 * no map at start), `state_dir_relative` (no absolute state folder), `pidfile_failed` (the
 * pidfile could not be written), `no_config_dir` (no absolute adapter config folder).
 *
 * @example WATCHER_EXIT_REASONS.includes("claude_gone") === true
 */
export const WATCHER_EXIT_REASONS = [
  "claude_gone",
  "map_gone",
  "map_changed",
  "signal",
  "already_running",
  "fatal_error",
  "not_in_session",
  "state_dir_relative",
  "pidfile_failed",
  "no_config_dir",
] as const;

/** One exit reason of the watcher. */
export type WatcherExitReason = (typeof WATCHER_EXIT_REASONS)[number];

/** How the watcher ended: the reason and the process exit status. */
export interface WatcherExit {
  readonly reason: WatcherExitReason;
  readonly status: number;
  /** The error code, for `fatal_error`. */
  readonly code?: ErrorCode;
}

/** Inputs of {@link runWatcher}; everything but `claudePid` and `env` has a default. */
export interface RunWatcherOptions {
  /** `--claude-pid`: must equal `env.CLAUDE_PID`. */
  readonly claudePid: string;
  /** The allow-listed environment (`CLAUDE_*`, `HOME`, `XDG_*`, …); the token only here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The entry script the watcher runs from (its `version`); default `process.argv[1]`. */
  readonly entryScript?: string;
  /** Ends the watcher as SIGTERM does (no session close). */
  readonly signal?: AbortSignal;
  readonly uid?: number;
  readonly probe?: ProcessProbe;
  /** The clock, ms since the epoch. */
  readonly now?: () => number;
  /** Liveness tick, ms (default 2,000). */
  readonly tickMs?: number;
  /** Heartbeat interval, ms (default 30,000). */
  readonly heartbeatMs?: number;
  /** Cap on the closing `session close`, ms (default 3,000). */
  readonly closeTimeoutMs?: number;
  readonly backoff?: WatcherBackoff;
  /** Opens the adapter (default {@link openHarnessAdapter}). */
  readonly openAdapter?: (target: HarnessAdapterTarget) => Adapter;
  /** Posts to the inbox socket (default {@link postToInbox}). */
  readonly post?: (options: InboxPostOptions) => Promise<InboxPostResult>;
  /** Diagnostics (default the NDJSON file `logs/watcher-<pid>.log`). */
  readonly log?: WatcherLog;
}

const FATAL_NOTICE =
  "Brigade: message delivery stopped: this machine's team credential or configuration was refused; run `brigade team join` in your terminal, then send a prompt.";

/**
 * The watcher of one Claude Code session (claude-code.md §7.4, docs/41-watcher.md): takes the
 * pidfile, runs the adapter's message watch in process and delivers every message through the
 * inbound pipeline, the injection pacer and the inbox socket, acknowledging only after a
 * successful post. Liveness tick every 2 s (Claude's pid, the by-pid map, the registry status,
 * release requests); heartbeats every 30 s and on busy/idle flips. Resolves with how it ended;
 * never throws.
 *
 * @example const exit = await runWatcher({ claudePid: "4242", env: process.env });
 */
export async function runWatcher(options: RunWatcherOptions): Promise<WatcherExit> {
  const claudePid = options.claudePid;
  const env = options.env;
  if (!isClaudePid(claudePid) || env.CLAUDE_PID !== claudePid) {
    return { reason: "not_in_session", status: ERROR_EXIT_STATUS.config };
  }
  const stateDir = resolveStateDir(env);
  if (!stateDir.ok) return { reason: "state_dir_relative", status: ERROR_EXIT_STATUS.config };
  const layout = stateLayout(stateDir.dir);
  const uid = options.uid ?? process.getuid?.() ?? -1;
  const token = messagingToken(env);
  const log = options.log ?? fileWatcherLog(layout.root, layout.watcherLog(claudePid), [token]);
  const read = readByPidMap({ claudePid, env, uid });
  if (!read.ok) {
    log.write("warn", "watcher_no_map", { reason: read.reason });
    return { reason: "not_in_session", status: ERROR_EXIT_STATUS.config };
  }
  const map = read.map;
  const configDir = harnessConfigDir(env, map.config_dir);
  if (configDir === undefined) {
    log.write("error", "watcher_no_config_dir");
    return { reason: "no_config_dir", status: ERROR_EXIT_STATUS.config };
  }
  const fromEnv = messagingSocketFromEnv(env);
  const socketPath = fromEnv !== "" ? fromEnv : map.socket_path;
  const probe = options.probe ?? systemProcessProbe;
  const startToken = probe.startToken(process.pid) ?? `pid:${process.pid}`;
  const acquired = acquirePidfile(
    layout,
    claudePid,
    {
      pid: process.pid,
      start_token: startToken,
      brigade_session_id: map.brigade_session_id,
      socket_path: socketPath,
      token_sha256: tokenSha256(token),
      version: watcherVersion(options.entryScript ?? process.argv[1] ?? ""),
    },
    probe,
  );
  if (acquired.outcome === "busy") {
    log.write("info", "watcher_already_running", { holder: acquired.holder.pid });
    return { reason: "already_running", status: 0 };
  }
  if (acquired.outcome === "failed") {
    log.write("error", "watcher_pidfile_failed");
    return { reason: "pidfile_failed", status: ERROR_EXIT_STATUS.internal };
  }
  const watcher = new Watcher({
    ...options,
    layout,
    map,
    uid,
    log,
    probe,
    token,
    socketPath,
    adapter: (options.openAdapter ?? openHarnessAdapter)({ configDir, teamKey: map.team_key }),
  });
  try {
    return await watcher.run();
  } finally {
    deletePidfileIfNames(layout, claudePid, process.pid, startToken);
  }
}

interface WatcherDeps extends RunWatcherOptions {
  readonly layout: StateLayout;
  readonly map: ByPidMap;
  readonly uid: number;
  readonly log: WatcherLog;
  readonly probe: ProcessProbe;
  readonly token: string;
  readonly socketPath: string;
  readonly adapter: Adapter;
}

/**
 * One running watcher; {@link runWatcher} builds it after taking the pidfile. It wires the pieces
 * (each with its own contract and tests): {@link WatchSupervision} (restarts and back-off),
 * {@link SessionHeartbeats}, {@link RedeliverySchedule} (fetching unacked messages again), the
 * inbound pipeline and the injection pacer, to the timers, the adapter and the files.
 */
class Watcher {
  readonly #d: WatcherDeps;
  readonly #now: () => number;
  readonly #tickMs: number;
  readonly #sessionId: string;
  readonly #pipeline: InboundPipeline;
  readonly #pacer: InjectionPacer;
  readonly #delivery: InboxDelivery;
  readonly #heartbeats: SessionHeartbeats;
  readonly #redelivery: RedeliverySchedule;
  readonly #transcript = new TranscriptUsageReader();
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

  constructor(deps: WatcherDeps) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
    this.#tickMs = deps.tickMs ?? 2_000;
    this.#sessionId = deps.map.brigade_session_id;
    this.#post = deps.post ?? postToInbox;
    this.#registry = registryFolder(deps.env);
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
    this.#pipeline = new InboundPipeline({
      now: this.#now,
      hashBody: sha256Hex,
      seen: FileSeenStore.open(deps.layout, this.#sessionId, deps.uid),
      pendingStore: pendingFileStore(deps.layout, this.#sessionId),
      pendingRecords: readPendingRecords(deps.layout, this.#sessionId, deps.uid),
      policy: deps.map.inbound,
      teamName: deps.map.team_name,
      instruction: { level: deps.map.frame_level, custom: deps.map.frame_text },
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
    });
    this.#pacer = successorPacer(this.#now());
    this.#delivery = new InboxDelivery({
      pipeline: this.#pipeline,
      pacer: this.#pacer,
      post: (content) => this.#post({ socketPath: deps.socketPath, token: deps.token, content }),
      log: deps.log,
      now: this.#now,
      tickMs: this.#tickMs,
      work: this.#work,
      running: () => this.#running,
      onPostFailed: () => this.#redelivery.afterPostFailed(this.#now()),
      onDelivered: async (messageId) => {
        this.#status.delivered();
        await this.#ack(messageId);
      },
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
      const { capabilities } = await this.#d.adapter.describe();
      this.#heartbeats.enable({
        model: capabilities.includes("session.model"),
        contextUsedTokens: capabilities.includes("session.context_used_tokens"),
      });
    } catch {
      // without capabilities, the transcript values are simply not sent
    }
    const timer = setInterval(() => void this.#tick(), this.#tickMs);
    const tasks = [this.#delivery.run()];
    if (this.#d.socketPath !== "") tasks.push(this.#supervise());
    else log.write("warn", "watcher_no_socket");
    void this.#tick();
    await this.#done;
    clearInterval(timer);
    this.#d.signal?.removeEventListener("abort", abort);
    this.#watch.stop();
    this.#work.wake();
    await Promise.allSettled(tasks);
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
    if (result.ack) void this.#ack(result.messageId);
    if (result.outcome === "queued" && result.evicted !== undefined) {
      this.#d.log.write("info", "message_set_aside", { message_id: result.evicted });
    }
    this.#redelivery.afterOffer(result, this.#now());
    if (result.outcome === "queued") this.#work.wake();
  }

  /**
   * Acknowledges through `message ack`, never the watch's `{type: "ack"}` command: a command's
   * failure arrives only as a later `error` event on the stream, with nothing tying it to this
   * message, so a failed ack would pass for a sent one and never be retried.
   */
  async #ack(messageId: string): Promise<void> {
    try {
      await this.#d.adapter.messageAck(this.#sessionId, { message_ids: [messageId] });
      this.#d.log.write("info", "ack_sent", { message_id: messageId });
    } catch (error) {
      this.#d.log.write("warn", "ack_failed", { message_id: messageId, code: codeOf(error) });
      this.#redelivery.afterAckFailed(this.#now());
    }
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
    const liveness = probe.liveness(map.claude_pid);
    if (liveness !== "alive") {
      log.write("info", "claude_gone", { liveness });
      this.#stop({ reason: "claude_gone", status: 0 });
      return;
    }
    const read = readByPidMap({ claudePid, env: this.#d.env, uid });
    if (!read.ok) {
      log.write("info", "map_gone", { reason: read.reason });
      this.#stop({ reason: "map_gone", status: 0 });
      return;
    }
    if (read.map.brigade_session_id !== this.#sessionId) {
      log.write("info", "map_changed");
      this.#stop({ reason: "map_changed", status: 0 });
      return;
    }
    if (read.map.inbound !== this.#pipeline.policy) {
      const withdrawn = this.#pipeline.setPolicy(read.map.inbound);
      log.write("info", "policy_changed", {
        policy: read.map.inbound,
        withdrawn: withdrawn.length,
      });
      // Our server sends a message once per watch connection: what was refused or held before
      // comes back only if we fetch it.
      if (read.map.inbound === "accept") this.#redelivery.at(this.#now());
    }
    if (this.#heartbeats.wantsTranscript) this.#readTranscript(read.map.transcript_path);
    const now = this.#now();
    const activity = readRegistryActivity(this.#registry, claudePid);
    this.#pacer.observeActivity(now, activity);
    if (activity !== this.#activity) {
      this.#activity = activity;
      log.write("debug", "activity", { activity });
    }
    const released = consumeReleaseRequests(layout, this.#sessionId, uid);
    if (released.length > 0) {
      const before = this.#pipeline.queued;
      const count = this.#pipeline.release(released);
      log.write("info", "released", { count });
      if (this.#pipeline.queued - before < count) this.#redelivery.at(now);
    }
    this.#work.wake();
    this.#heartbeats.tick(now, this.#activity);
    // Not awaited: a slow server must never hold up the next liveness check.
    if (this.#redelivery.takeDue(now, this.#pipeline.queued)) void this.#redeliver();
  }

  /** Reads the transcript's new bytes; only a restart is logged (never a path or its text). */
  #readTranscript(path: string | undefined): void {
    const outcome = this.#transcript.read(path);
    if (outcome.restarted !== undefined) {
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
      const result = await this.#d.adapter.messageReceive(this.#sessionId, { limit: 50 });
      if (this.#running) for (const message of result.messages) this.#offer(message);
    } catch (error) {
      this.#d.log.write("warn", "redrive_failed", { code: codeOf(error) });
    } finally {
      this.#redelivery.fetchDone();
    }
  }
}
