import type { InboxPostResult } from "../claude-code/index.ts";
import type { InboundItem, InboundPipeline } from "../inbound/index.ts";
import { InjectionPacer, PACER_LIMITS } from "../pacing/index.ts";
import type { WakeableWait } from "./wakeable-wait.ts";
import type { WatcherLog } from "./watcher-log.ts";

/**
 * The pacer of a watcher that may follow another one (a respawn, a crash): the mirror bucket
 * starts with 12 of its 25 tokens, since the predecessor may have posted within the last minute
 * and Claude Code's bucket is per sender; and the outstanding count starts full, since the
 * predecessor's posts may still wait in a busy turn's queue, so nothing is posted until the
 * registry shows the session idle (at once when it already is).
 *
 * @example const pacer = successorPacer(clock());
 */
export function successorPacer(now: number): InjectionPacer {
  return new InjectionPacer({
    now,
    initialTokens: 12,
    initialOutstanding: PACER_LIMITS.outstandingCap,
  });
}

/** Construction options of {@link InboxDelivery}. */
export interface InboxDeliveryOptions {
  readonly pipeline: Pick<InboundPipeline, "peek" | "next" | "done">;
  readonly pacer: Pick<InjectionPacer, "nextPostAt" | "record">;
  /** Posts one item's text to the inbox socket. */
  readonly post: (content: string) => Promise<InboxPostResult>;
  readonly log: WatcherLog;
  /** The clock, ms (the pacer's time). */
  readonly now: () => number;
  /** The longest wait between two looks at the queue, ms (the liveness tick). */
  readonly tickMs: number;
  /** The wait new work and ticks end early. */
  readonly work: WakeableWait;
  /** False once the watcher stops. */
  readonly running: () => boolean;
  /** A message's post failed: it stays unacked (the caller plans a fetch). */
  readonly onPostFailed: () => void;
  /** A message was posted: the caller counts it and acks it (awaited before the next post). */
  readonly onDelivered: (messageId: string) => Promise<void>;
}

/**
 * The watcher's delivery loop (docs/41-watcher.md "The loop"): takes the pipeline's head when the
 * pacer allows it, posts it, records every post written (or a failed one that connected, which
 * may have arrived) in the pacer, then reports it `done`; only a successful post of a message is
 * delivered (acked). After a failed post it waits a tick. Logs `posted` and `post_failed` with the
 * message id or the notice kind only. Never throws (the post never rejects).
 *
 * @example await new InboxDelivery(options).run();
 */
export class InboxDelivery {
  readonly #o: InboxDeliveryOptions;

  constructor(options: InboxDeliveryOptions) {
    this.#o = options;
  }

  /** Delivers until `running()` is false. */
  async run(): Promise<void> {
    const { pipeline, pacer, tickMs, work } = this.#o;
    while (this.#o.running()) {
      const head = pipeline.peek();
      if (head === undefined) {
        await work.wait(tickMs);
        continue;
      }
      const now = this.#o.now();
      const at = pacer.nextPostAt(now, head.text);
      if (at > now) {
        await work.wait(Math.min(at - now, tickMs));
        continue;
      }
      const item = pipeline.next();
      if (item === undefined) continue;
      const ok = await this.#postItem(item);
      if (!ok) await work.wait(tickMs);
    }
  }

  async #postItem(item: InboundItem): Promise<boolean> {
    const { log, pacer, pipeline } = this.#o;
    const result = await this.#o.post(item.text);
    if (result.ok || (result.stage === "failed" && result.connected)) {
      pacer.record(this.#o.now(), item.text);
    }
    const done = pipeline.done(item, result.ok ? undefined : result.reason);
    const id = item.kind === "message" ? item.message.message_id : item.notice;
    if (!result.ok) {
      log.write("warn", "post_failed", { item: id, stage: result.stage, reason: result.reason });
      if (item.kind === "message") this.#o.onPostFailed();
      return false;
    }
    log.write("info", "posted", { item: id });
    if (done.ack) await this.#o.onDelivered(done.messageId);
    return true;
  }
}
