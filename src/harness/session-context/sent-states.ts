import {
  type Adapter,
  hasCapability,
  type MessageState,
  type MessageStateRecord,
} from "../../protocol/index.ts";

/** Longest `brigade send` waits for a message to leave `accepted`, ms (`--wait`'s maximum too). */
export const SEND_STATE_WAIT_MS = 3_000;

/** Pause between two `message state` calls while `brigade send` waits, ms. */
export const SEND_STATE_POLL_MS = 250;

/**
 * What each state tells the sender (docs/43-session-cli.md), one fixed clause without a value.
 *
 * @example `State: ${MESSAGE_STATE_SENTENCES.held}.`
 */
export const MESSAGE_STATE_SENTENCES: Readonly<Record<MessageState, string>> = Object.freeze({
  accepted:
    "accepted by the server; the recipient session has not taken it into its context yet (brigade sent shows what happens next)",
  acked: "in the recipient session's context",
  held: "held by the recipient: its user must release it before that session sees it",
  refused: "refused by the recipient's inbound policy: that session will not see it",
  undeliverable:
    "undeliverable for now: the recipient session has ended or gone silent (closed, or its lease ran out without a heartbeat); the message waits on the server for that session, or for its user's next session in the same checkout",
});

/** True when the adapter answers `message state` (capability `message.state`). Never throws. */
export async function supportsMessageStates(adapter: Adapter): Promise<boolean> {
  if (adapter.messageState === undefined) return false;
  try {
    return hasCapability((await adapter.describe()).capabilities, "message.state");
  } catch {
    return false;
  }
}

/** Options of {@link awaitMessageState}. */
export interface AwaitStateOptions {
  /** Total budget, ms (≤ {@link SEND_STATE_WAIT_MS}). */
  readonly waitMs: number;
  /** Pause between calls, ms. */
  readonly pollMs?: number;
  /** The clock, ms. */
  readonly now?: () => number;
  /** Resolves after `ms`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The state of `messageId` (sent by `sessionId`) once it leaves `accepted`, or the last state read
 * when `waitMs` runs out; `undefined` when the adapter has no `message.state` or no call answered
 * in time. Each call is cut at the remaining budget, so the whole wait never exceeds `waitMs` by
 * more than one poll's scheduling. Never throws.
 *
 * @example const record = await awaitMessageState(adapter, "s-2b8e", "m-7f3a", { waitMs: 3000 });
 */
export async function awaitMessageState(
  adapter: Adapter,
  sessionId: string,
  messageId: string,
  options: AwaitStateOptions,
): Promise<MessageStateRecord | undefined> {
  const lookup = adapter.messageState?.bind(adapter);
  if (lookup === undefined || !(await supportsMessageStates(adapter))) return undefined;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const deadline = now() + Math.min(Math.max(options.waitMs, 0), SEND_STATE_WAIT_MS);
  let last: MessageStateRecord | undefined;
  for (;;) {
    const left = deadline - now();
    if (left <= 0) return last;
    try {
      const result = await lookup(
        sessionId,
        { message_ids: [messageId] },
        { signal: AbortSignal.timeout(left) },
      );
      last = result.messages.find((m) => m.message_id === messageId) ?? last;
    } catch {
      // a failed or timed-out lookup leaves the last state read
    }
    if (last !== undefined && last.state !== "accepted") return last;
    const pause = Math.min(options.pollMs ?? SEND_STATE_POLL_MS, deadline - now());
    if (pause <= 0) return last;
    await sleep(pause);
  }
}
