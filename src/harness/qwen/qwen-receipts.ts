import type { QwenDeliveryStatus } from "./qwen-facts.ts";
import type { QwenReceipt } from "./qwen-frames.ts";

/**
 * What Brigade does with a message after a receipt (docs/49-qwen.md "Receipts"):
 *
 * - `confirm`: `delivered` — queued for the model; acked once Qwen Code's own record of the
 *   conversation holds it (`delivered` alone is "not proof it was read").
 * - `held`: parked for the person's review in `/peers`; reported to the sender as held, not acked.
 * - `refused`: `denied` (a person said no) or `refused` (the session's policy turns peers away);
 *   reported to the sender as refused, not acked.
 * - `retry`: `expired`, `misaddressed`, `dropped` — not acked, the status logged; the message
 *   stays on the server and is fetched again (misaddressed after the registry is read again).
 */
export type QwenDisposition = "confirm" | "held" | "refused" | "retry";

const DISPOSITION: Readonly<Record<QwenDeliveryStatus, QwenDisposition>> = {
  delivered: "confirm",
  held: "held",
  denied: "refused",
  refused: "refused",
  expired: "retry",
  misaddressed: "retry",
  dropped: "retry",
};

/**
 * The disposition of a status (see {@link QwenDisposition}).
 *
 * @example qwenDisposition("held") === "held"
 */
export function qwenDisposition(status: QwenDeliveryStatus): QwenDisposition {
  return DISPOSITION[status];
}

type Stage = "pending" | QwenDeliveryStatus;

/** The transitions of Qwen Code's cross-session-protocol.md, section 5; others are repeats. */
const NEXT: Readonly<Record<Stage, readonly QwenDeliveryStatus[]>> = {
  pending: ["held", "delivered", "denied", "refused", "expired", "misaddressed", "dropped"],
  held: ["delivered", "denied", "expired", "misaddressed"],
  delivered: ["expired", "misaddressed"],
  denied: [],
  refused: [],
  expired: [],
  misaddressed: [],
  dropped: [],
};

/** One accepted transition of a message we sent. */
export interface QwenTransition {
  readonly msgId: string;
  readonly status: QwenDeliveryStatus;
  /** `dropReason` of a `dropped` receipt. */
  readonly dropReason?: string;
}

/** Messages remembered at most (oldest forgotten first). */
export const QWEN_TRACKED_CAP = 4_096;

/**
 * The state of every message a door sent, moved only by the transitions the protocol allows
 * (section 5): receipts
 * arrive over separate connections in any order, so a repeat, a step backwards, or a receipt for
 * an id we never sent yields nothing. A `dropped` receipt settles its `origMsgId` and each of its
 * `droppedMsgIds`. Bounded to {@link QWEN_TRACKED_CAP} messages.
 *
 * @example const t = new QwenReceiptTracker(); t.sent("m-1"); t.apply(receipt) // [{ msgId: "m-1", status: "held" }]
 */
export class QwenReceiptTracker {
  readonly #stages = new Map<string, Stage>();

  /** Records a message as sent (pending); a re-send of a known id keeps its stage. */
  sent(msgId: string): void {
    if (this.#stages.has(msgId)) return;
    this.#stages.set(msgId, "pending");
    if (this.#stages.size > QWEN_TRACKED_CAP) {
      const oldest = this.#stages.keys().next().value;
      if (oldest !== undefined) this.#stages.delete(oldest);
    }
  }

  /** The stage of a sent message, or `undefined` for one never sent (or forgotten). */
  stage(msgId: string): Stage | undefined {
    return this.#stages.get(msgId);
  }

  /** Applies one receipt; returns the transitions it made (none for noise and repeats). */
  apply(receipt: QwenReceipt): QwenTransition[] {
    const ids = [receipt.origMsgId, ...receipt.droppedMsgIds];
    const out: QwenTransition[] = [];
    for (const msgId of ids) {
      const stage = this.#stages.get(msgId);
      if (stage === undefined || !NEXT[stage].includes(receipt.status)) continue;
      this.#stages.set(msgId, receipt.status);
      out.push({
        msgId,
        status: receipt.status,
        ...(receipt.dropReason === undefined ? {} : { dropReason: receipt.dropReason }),
      });
    }
    return out;
  }
}
