import {
  type Adapter,
  DEFAULT_RECEIVE_LIMIT,
  isBapError,
  type ReceiveResult,
} from "../../protocol/index.ts";
import { DispositionReporter } from "../adapter/index.ts";
import { MessageFiles } from "../attachments/index.ts";
import { fetchedMessages, type InboundItem, type InboundPipeline } from "../inbound/index.ts";
import { bapErrorLine, type SessionContext } from "../session-context/index.ts";
import { consumeReleaseRequests, openSessionInbound } from "../state/index.ts";
import { deliveryOwned, PUSH_LANE_INBOX_LINE } from "../watcher/index.ts";
import { sessionWorkspace } from "./origin-workspace.ts";
import { sentinelFrame } from "./sentinel-frame.ts";

/** Longest wait one `inbox` call may ask for, seconds. */
export const INBOX_MAX_WAIT_S = 60;

/** Most messages one `inbox` result carries; the rest wait for the next call. */
export const INBOX_MAX_MESSAGES = 10;

/** Budget of the acknowledgement after a result was written, ms. */
export const INBOX_ACK_TIMEOUT_MS = 5_000;

/**
 * What one {@link McpInbox.take} handed out. Nothing is acknowledged yet: the caller writes
 * `blocks` as the tool result, then calls `delivered()` once the write succeeded, or
 * `undelivered()` if it did not.
 */
export interface InboxTake {
  readonly ok: true;
  /** One text per item, oldest first: `Brigade: …` notices, and messages (sentinel + frame). */
  readonly blocks: readonly string[];
  /** How many of `blocks` are messages. */
  readonly messages: number;
  /** Messages still queued here for the next call. */
  readonly waiting: number;
  /** Messages held for the person under the `hold` policy (never shown to the model). */
  readonly held: number;
  /** True when a live push lane owns the session: `blocks` is its one line, and nothing else is said. */
  readonly owned?: boolean;
  /** The result reached the host: record the messages as seen and acknowledge them. Never throws. */
  delivered(): Promise<void>;
  /** The result was not written: the messages go back (the server delivers them again). */
  undelivered(): void;
}

/** A take that failed: the receive call's BAP error, as one `<code>: <sentence>` line. */
export interface InboxFailure {
  readonly ok: false;
  readonly line: string;
}

/** Options of {@link McpInbox.take}. */
export interface InboxTakeOptions {
  /** How long to wait for a message when none is waiting, ms (0 to `INBOX_MAX_WAIT_S` s). */
  readonly waitMs: number;
  /** The call's cancellation (the host cancelled the request, or the server stops). */
  readonly signal: AbortSignal;
  /**
   * Whether a message's files are downloaded so it can be handed out (default true). False only
   * to count what waits (`countWaiting`): a message whose files are not received then stops the
   * take and counts as waiting.
   */
  readonly receiveFiles?: boolean;
}

/** One bound session's inbound state, kept for the life of the process. */
interface SessionInbox {
  readonly pipeline: InboundPipeline;
  readonly reporter: DispositionReporter;
  readonly files: MessageFiles;
}

/**
 * The `inbox` tool's delivery (docs/48-mcp.md "Delivered = read by the model"): one inbound
 * pipeline per bound session (`openSessionInbound`: the same seen, pending and release files, the
 * same policy, sender order, rate limits and frames as the Claude Code harness), kept for the
 * life of the process. A take fetches the session's unacknowledged messages, offers them oldest
 * first, and hands out up to {@link INBOX_MAX_MESSAGES}, each as `sentinelFrame`. A message is
 * recorded and acknowledged only in `delivered()`, after the result holding it was written: a
 * crash or a failed write before that leaves it unacknowledged, and the server delivers it again.
 * A message fetched for any other reason (held, refused, behind its sender's older one, over a
 * rate limit) is never acknowledged.
 *
 * @example const take = await inbox.take(ctx, { waitMs: 0, signal }); if (take.ok) { write(take.blocks); await take.delivered(); }
 */
export class McpInbox {
  readonly #now: () => number;
  readonly #sessions = new Map<string, SessionInbox>();

  readonly #owned: (ctx: SessionContext) => boolean;

  /**
   * `owned` says whether a live delivery process owns the session (default `deliveryOwned` on
   * the session's pidfile): tests replace it.
   */
  constructor(
    options: {
      readonly now?: () => number;
      readonly owned?: (ctx: SessionContext) => boolean;
    } = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#owned =
      options.owned ??
      ((ctx) => deliveryOwned(ctx.layout, ctx.map.claude_pid, ctx.map.brigade_session_id));
  }

  /**
   * Takes what the session of `ctx` may read now; with nothing to read, waits up to
   * `options.waitMs` for a message the server had not offered yet (`message watch`, so it is
   * woken within milliseconds), then takes once more. A failed `message receive` is an
   * {@link InboxFailure}; only what is not a `BapError` (a bug) is thrown.
   *
   * While a live push lane owns the session (docs/49-hosts.md, "One message, one lane"), nothing
   * is fetched or handed out: the take holds only {@link PUSH_LANE_INBOX_LINE}. It is asked again
   * after each fetch, right before the hand-out, so a lane that started meanwhile wins too.
   */
  async take(ctx: SessionContext, options: InboxTakeOptions): Promise<InboxTake | InboxFailure> {
    if (this.#owned(ctx)) return laneTake();
    const inbox = this.#inboxOf(ctx);
    const sessionId = ctx.map.brigade_session_id;
    inbox.pipeline.release(consumeReleaseRequests(ctx.layout, sessionId, ctx.uid));
    const deadline = this.#now() + options.waitMs;
    const offered = new Set<string>();
    for (;;) {
      const fetched = await this.#fetch(ctx, inbox, offered, options.signal);
      if (!fetched.ok) return fetched;
      if (this.#owned(ctx)) return laneTake();
      const take = await this.#handOut(ctx, inbox, options);
      const left = deadline - this.#now();
      if (take.blocks.length > 0 || left <= 0 || options.signal.aborted) return take;
      take.undelivered();
      const woken = await nextArrival(ctx.adapter, sessionId, offered, left, options.signal);
      if (!woken) return this.#owned(ctx) ? laneTake() : await this.#handOut(ctx, inbox, options);
    }
  }

  #inboxOf(ctx: SessionContext): SessionInbox {
    const sessionId = ctx.map.brigade_session_id;
    const known = this.#sessions.get(sessionId);
    if (known !== undefined) {
      // The session hook may have changed the policy since: the map is read on every call.
      if (known.pipeline.policy !== ctx.map.inbound) known.pipeline.setPolicy(ctx.map.inbound);
      return known;
    }
    const inbox: SessionInbox = {
      pipeline: openSessionInbound({
        map: ctx.map,
        layout: ctx.layout,
        uid: ctx.uid,
        now: this.#now,
        delivery: "poll",
      }),
      reporter: new DispositionReporter(ctx.adapter, sessionId),
      files: new MessageFiles({ adapter: ctx.adapter, sessionId, project: ctx.map.checkout }),
    };
    this.#sessions.set(sessionId, inbox);
    return inbox;
  }

  /** One `message receive`, oldest first, through the pipeline; duplicates acknowledged. */
  async #fetch(
    ctx: SessionContext,
    inbox: SessionInbox,
    offered: Set<string>,
    signal: AbortSignal,
  ): Promise<{ readonly ok: true } | InboxFailure> {
    const sessionId = ctx.map.brigade_session_id;
    let received: ReceiveResult;
    try {
      received = await ctx.adapter.messageReceive(sessionId, {
        limit: DEFAULT_RECEIVE_LIMIT,
        signal,
      });
    } catch (error) {
      if (!isBapError(error)) throw error;
      return { ok: false, line: bapErrorLine(error) };
    }
    const messages = oldestFirst(received.messages);
    inbox.pipeline.refetched(fetchedMessages(messages), messages.length < DEFAULT_RECEIVE_LIMIT);
    const duplicates: string[] = [];
    for (const message of messages) {
      try {
        const result = inbox.pipeline.offer(message);
        if (result.outcome === "rejected") continue;
        offered.add(result.messageId);
        if (result.ack) duplicates.push(result.messageId);
        inbox.reporter.note(result.outcome, result.messageId);
      } catch {
        // a pending file that cannot be written: the message stays unacknowledged on the server
      }
    }
    // Already read by the model earlier (the seen file says so): only the ack was lost.
    await Promise.all([acknowledge(ctx, duplicates), inbox.reporter.flush(ackSignal())]);
    return { ok: true };
  }

  async #handOut(
    ctx: SessionContext,
    inbox: SessionInbox,
    options: InboxTakeOptions,
  ): Promise<InboxTake> {
    const { pipeline } = inbox;
    const items: Exclude<InboundItem, { readonly kind: "files" }>[] = [];
    let messages = 0;
    for (;;) {
      // A message's files are received before it is handed out; one that fails stays unacked.
      if (options.receiveFiles !== false && messages < INBOX_MAX_MESSAGES) {
        if ((await inbox.files.settleHead(pipeline, options.signal)) === "failed") continue;
      }
      const item = pipeline.peek();
      if (item === undefined || item.kind === "files") break;
      if (item.kind === "message" && messages === INBOX_MAX_MESSAGES) break;
      const next = pipeline.next();
      if (next === undefined) break;
      if (next.kind === "files") {
        pipeline.done(next, "files_missing");
        break;
      }
      items.push(next);
      if (next.kind === "message") messages += 1;
    }
    const workspace = messages > 0 ? sessionWorkspace(ctx) : "";
    const blocks = items.map((item) =>
      item.kind === "notice"
        ? item.text
        : sentinelFrame(item.frame, item.message.sender.session_id, workspace),
    );
    let settled = false;
    return {
      ok: true,
      blocks,
      messages,
      waiting: pipeline.queued,
      held: pipeline.pendingRecords().length,
      delivered: async () => {
        if (settled) return;
        settled = true;
        const acks: string[] = [];
        for (const item of items) {
          const done = pipeline.done(item);
          if (done.ack) acks.push(done.messageId);
        }
        await acknowledge(ctx, acks);
      },
      undelivered: () => {
        if (settled) return;
        settled = true;
        for (const item of items) pipeline.done(item, new Error("not delivered"));
      },
    };
  }
}

/** The take of a session a live push lane owns: the one line, nothing to acknowledge. */
function laneTake(): InboxTake {
  return {
    ok: true,
    blocks: [PUSH_LANE_INBOX_LINE],
    owned: true,
    messages: 0,
    waiting: 0,
    held: 0,
    delivered: async () => {},
    undelivered: () => {},
  };
}

function ackSignal(): AbortSignal {
  return AbortSignal.timeout(INBOX_ACK_TIMEOUT_MS);
}

/** Acknowledges `ids`; a failure costs nothing but a redelivery the seen file turns into an ack. */
async function acknowledge(ctx: SessionContext, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    await ctx.adapter.messageAck(
      ctx.map.brigade_session_id,
      { message_ids: [...ids] },
      { signal: ackSignal() },
    );
  } catch {
    // unacknowledged messages come back; the seen file makes them duplicates, acked then
  }
}

/** The envelopes by `created_at`, oldest first, in a stable sort (BAP/1 promises no order). */
function oldestFirst(messages: readonly unknown[]): unknown[] {
  const at = (message: unknown): number => {
    const created = (message as { created_at?: unknown } | null)?.created_at;
    const ms = typeof created === "string" ? Date.parse(created) : Number.NaN;
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return messages
    .map((message, index) => ({ message, index, at: at(message) }))
    .sort((a, b) => (a.at === b.at ? a.index - b.index : a.at < b.at ? -1 : 1))
    .map(({ message }) => message);
}

/**
 * Waits up to `ms` for a `message watch` event naming an id not in `offered`: true when one
 * came, false when the time ran out, the call was cancelled or the watch ended. Never throws.
 */
async function nextArrival(
  adapter: Adapter,
  sessionId: string,
  offered: ReadonlySet<string>,
  ms: number,
  signal: AbortSignal,
): Promise<boolean> {
  const watch = adapter.messageWatch(sessionId);
  const stop = AbortSignal.any([signal, AbortSignal.timeout(ms)]);
  const close = (): void => void watch.close();
  stop.addEventListener("abort", close, { once: true });
  try {
    for await (const event of watch) {
      if (stop.aborted) return false;
      if (event.event === "message" && !offered.has(event.message.message_id)) return true;
    }
    return false;
  } catch {
    return false;
  } finally {
    stop.removeEventListener("abort", close);
    await watch.close();
  }
}
