import { randomUUID } from "node:crypto";
import type {
  DeliveryDoor,
  DoorContext,
  DoorMessageItem,
  DoorStep,
} from "../host-session/index.ts";
import { takeNextPost } from "../host-session/index.ts";
import type { QwenPostResult } from "./qwen-door.ts";
import { type QwenTransition, qwenDisposition } from "./qwen-receipts.ts";
import type { QwenRecord, QwenSessionLookup } from "./qwen-registry.ts";

/** What {@link QwenDelivery} runs with: the push lane's context and Qwen Code's door. */
export interface QwenDeliveryOptions extends DoorContext {
  /** Writes one message (`QwenPeerDoor.post`). */
  readonly post: (
    record: QwenRecord,
    authToken: string | undefined,
    msgId: string,
    content: string,
  ) => Promise<QwenPostResult>;
  /** The session's record, re-read before every send (`findQwenSession`). */
  readonly session: () => QwenSessionLookup;
  /** The person's controller token, or `undefined`: then Qwen Code holds every message. */
  readonly controllerToken: string | undefined;
  /** Whether Qwen Code's own record of the conversation holds `content` (`envelopeHolds`). */
  readonly inConversation: (content: string) => boolean;
  /** A fresh frame id per post (default a UUID). */
  readonly newMsgId?: () => string;
  /** Lets go of the door's own inbox (`QwenPeerDoor.close`) when the lane closes the door. */
  readonly closeDoor?: () => Promise<void>;
}

/** What one {@link QwenDelivery.step} did. */
export type QwenStep = DoorStep;

interface Sent {
  readonly item: DoorMessageItem;
  readonly content: string;
  /** Waiting for Qwen Code's record to show it (after `delivered`). */
  confirming: boolean;
}

/**
 * The Qwen Code door under Brigade's shared push lane (a {@link DeliveryDoor}, docs/49-qwen.md
 * "Receipts", docs/49-hosts.md "The push lane"): takes the
 * pipeline's head in server order when the pacer allows it, re-reads the session's record, posts
 * the message's sentinel + frame addressed to that session, and settles it by the receipts the
 * door reports to {@link onTransition}: `delivered` waits until Qwen Code's record holds it, then
 * the pipeline's `done` and an ack; `held` is reported held; `denied`/`refused` are reported
 * refused and done unacked; `expired`/`misaddressed`/`dropped` are done unacked (the server
 * delivers them again). A failed post is done unacked. A notice (`Brigade: …` rate/drop lines) is
 * posted as a message of its own. Never throws.
 *
 * @example const d = new QwenDelivery(options); door = await QwenPeerDoor.open({ fromName, onTransition: (t) => d.onTransition(t) });
 */
export class QwenDelivery implements DeliveryDoor {
  readonly #o: QwenDeliveryOptions;
  readonly #sent = new Map<string, Sent>();
  #closed = false;

  constructor(options: QwenDeliveryOptions) {
    this.#o = options;
  }

  /** Messages posted and not yet settled (in the record, refused or given back). */
  get outstanding(): number {
    return this.#sent.size;
  }

  /** Posts the pipeline's head if there is one and the pacer allows it. */
  async step(): Promise<DoorStep> {
    if (this.#closed) return "nothing";
    const { pipeline, pacer, now } = this.#o;
    const next = await takeNextPost(this.#o);
    if ("step" in next) return next.step;
    const { item, content } = next;
    const id = item.kind === "message" ? item.message.message_id : item.notice;
    const found = this.#o.session();
    if (!found.ok) {
      this.#o.log("warn", "qwen_no_session", { item: id, reason: found.reason });
      pipeline.done(item, found.reason);
      return "failed";
    }
    const msgId = this.#o.newMsgId?.() ?? randomUUID();
    if (item.kind === "message") this.#sent.set(msgId, { item, content, confirming: false });
    const result = await this.#o.post(found.record, this.#o.controllerToken, msgId, content);
    if (result.ok || result.connected) pacer.record(now(), content);
    if (!result.ok) {
      this.#sent.delete(msgId);
      this.#o.log("warn", "post_failed", { item: id, reason: result.reason });
      pipeline.done(item, result.reason);
      return "failed";
    }
    this.#o.log("info", "posted", { item: id });
    if (item.kind === "notice") pipeline.done(item);
    return "posted";
  }

  /** Applies one receipt transition the door accepted (see the class contract). */
  onTransition(transition: QwenTransition): void {
    const sent = this.#sent.get(transition.msgId);
    if (sent === undefined) return;
    const messageId = sent.item.message.message_id;
    const disposition = qwenDisposition(transition.status);
    this.#o.log(
      disposition === "retry" || disposition === "refused" ? "warn" : "info",
      "qwen_receipt",
      {
        message_id: messageId,
        status: transition.status,
        ...(transition.dropReason === undefined ? {} : { drop_reason: transition.dropReason }),
      },
    );
    if (disposition === "confirm") {
      sent.confirming = true;
      this.#confirmNow();
      return;
    }
    if (disposition === "held") {
      this.#o.report("held", messageId);
      return;
    }
    this.#sent.delete(transition.msgId);
    if (disposition === "refused") this.#o.report("refused", messageId);
    this.#o.pipeline.done(sent.item, `qwen_${transition.status}`);
  }

  /**
   * Acks every delivered message Qwen Code's record now holds, and tells the pacer how many of
   * ours still wait in Qwen Code's queue. Call it after each receipt and on a timer.
   */
  async confirm(): Promise<void> {
    this.#confirmNow();
  }

  /** Lets go of the door's own inbox; nothing is posted after. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#o.closeDoor?.();
  }

  #confirmNow(): void {
    for (const [msgId, sent] of this.#sent) {
      if (!sent.confirming || !this.#o.inConversation(sent.content)) continue;
      this.#sent.delete(msgId);
      const done = this.#o.pipeline.done(sent.item);
      this.#o.log("info", "in_conversation", { message_id: sent.item.message.message_id });
      if (done.ack) this.#o.ack(done.messageId);
    }
    this.#o.pacer.observeClaudeQueue(this.#o.now(), this.#sent.size);
  }
}
