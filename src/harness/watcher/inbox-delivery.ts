import type { HeadFiles } from "../attachments/index.ts";
import type { InboxPostResult } from "../claude-code/index.ts";
import type { InboundItem, InboundPipeline } from "../inbound/index.ts";
import { InjectionPacer, PACER_LIMITS } from "../pacing/index.ts";
import type { MessageItem } from "./delivery-confirmations.ts";
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
  /**
   * Receives the files of the pipeline's head before it is posted (`MessageFiles.settleHead`);
   * default none (a message naming files then never leaves the head: it is never posted without
   * them).
   */
  readonly settleFiles?: () => Promise<HeadFiles>;
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
  /**
   * A message was posted (`written`), or found already admitted or in the conversation (not
   * written): it stays handed out, and the caller acks it once the transcript shows it in the
   * conversation (docs/41-watcher.md "Acked means in the conversation").
   */
  readonly onPosted: (item: MessageItem, written: boolean) => void;
  /** Where a message already is, as the transcript tells (a successor's redrive); default `unknown`. */
  readonly whereIs?: (item: MessageItem) => "conversation" | "enqueued" | "unknown";
  /** A message to post again (a missing post), taken before the pipeline's head; default none. */
  readonly reposts?: { peek(): MessageItem | undefined; shift(): MessageItem | undefined };
  /** False while Claude Code's gate would hold a post: nothing is posted; default always true. */
  readonly gateOpen?: () => boolean;
  /**
   * False while an earlier post is not yet seen admitted (nor held, nor in the conversation): no
   * new item is posted, so a repost after a drop cannot be overtaken; reposts still go. Default
   * always true.
   */
  readonly admitted?: () => boolean;
}

/**
 * The watcher's delivery loop (docs/41-watcher.md "The loop"): while the gate is open, takes a
 * repost or else — once every earlier post is admitted — the pipeline's head when the pacer
 * allows it, posts it, records every post
 * written (or a failed one that connected, which may have arrived) in the pacer. A notice is then
 * reported `done`; a posted message is handed to `onPosted` and stays handed out until the caller
 * sees it in the conversation; a failed post is reported `done` with its error (unacked). A
 * message the transcript already shows admitted or in the conversation is not posted again. After
 * a failed post it waits a tick. Logs `posted` and `post_failed` with the message id or the notice
 * kind only. Never throws (the post never rejects).
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
      if (this.#o.gateOpen?.() === false) {
        await work.wait(tickMs);
        continue;
      }
      const repost = this.#o.reposts?.peek();
      const head = repost ?? (this.#o.admitted?.() === false ? undefined : pipeline.peek());
      if (head === undefined) {
        await work.wait(tickMs);
        continue;
      }
      if (head.kind === "files") {
        // The message's files first: a message never reaches the model before its files do.
        const settled = (await this.#o.settleFiles?.()) ?? "none";
        if (settled === "failed") this.#o.onPostFailed();
        if (settled !== "ready") await work.wait(tickMs);
        continue;
      }
      if (repost === undefined && head.kind === "message") {
        const where = this.#o.whereIs?.(head) ?? "unknown";
        if (where !== "unknown") {
          const item = pipeline.next();
          if (item?.kind === "message") this.#o.onPosted(item, false);
          continue;
        }
      }
      const now = this.#o.now();
      const at = pacer.nextPostAt(now, head.text);
      if (at > now) {
        await work.wait(Math.min(at - now, tickMs));
        continue;
      }
      const item = repost === undefined ? pipeline.next() : this.#o.reposts?.shift();
      if (item === undefined) continue;
      if (item.kind === "files") {
        pipeline.done(item, "files_missing");
        continue;
      }
      const ok = await this.#postItem(item, repost !== undefined);
      if (!ok) await work.wait(tickMs);
    }
  }

  async #postItem(
    item: Exclude<InboundItem, { readonly kind: "files" }>,
    again: boolean,
  ): Promise<boolean> {
    const { log, pacer, pipeline } = this.#o;
    const result = await this.#o.post(item.text);
    if (result.ok || (result.stage === "failed" && result.connected)) {
      pacer.record(this.#o.now(), item.text);
    }
    const id = item.kind === "notice" ? item.notice : item.message.message_id;
    if (!result.ok) {
      log.write("warn", "post_failed", { item: id, stage: result.stage, reason: result.reason });
      // A repost stays tracked: it counts as missing again after its wait.
      if (item.kind === "message" && again) this.#o.onPosted(item, true);
      else pipeline.done(item, result.reason);
      if (item.kind === "message" && !again) this.#o.onPostFailed();
      return false;
    }
    log.write("info", again ? "reposted" : "posted", { item: id });
    if (item.kind === "message") this.#o.onPosted(item, true);
    else pipeline.done(item);
    return true;
  }
}
