import type {
  DeliveryDoor,
  DoorContext,
  DoorMessageItem,
  DoorStep,
} from "../host-session/index.ts";
import { takeNextPost } from "../host-session/index.ts";
import { openCodeMessageIds } from "./opencode-message-id.ts";
import type { OpenCodeServer } from "./opencode-server.ts";

/**
 * Why the OpenCode door gave a message back to the pipeline unacked (the server delivers it
 * again; docs/errors.md): `opencode_session_gone` (404: OpenCode has no such session; the door
 * closes), `opencode_refused` (another refusal of the post), `opencode_unreachable` (no answer,
 * and the id was not stored within the grace), `opencode_missing` (answered, yet never stored
 * within the give-up time), `opencode_mismatch` (another message holds our id).
 *
 * @example OPENCODE_DOOR_REASONS.includes("opencode_missing") === true
 */
export const OPENCODE_DOOR_REASONS = [
  "opencode_session_gone",
  "opencode_refused",
  "opencode_unreachable",
  "opencode_missing",
  "opencode_mismatch",
] as const;

/**
 * How long a message OpenCode answered 204 for may stay missing from the session's stored
 * messages before it is given back to the server unacked, ms (measured: it is there at once).
 */
export const OPENCODE_MISSING_GIVE_UP_MS = 60_000;

/**
 * How long after a post that got no answer (a timeout, a dropped connection) the door waits
 * before it reads a missing message as never stored and gives it back unacked, ms.
 */
export const OPENCODE_UNSURE_GRACE_MS = 10_000;

/** What {@link OpenCodeDoor} runs with. */
export interface OpenCodeDoorOptions {
  /** The shared push lane's context for this session. */
  readonly context: DoorContext;
  /** The session's OpenCode server (`openCodeServer`, after `listenerOwnedBy`). */
  readonly server: OpenCodeServer;
  /** OpenCode's id of the session (`ses_…`). */
  readonly sessionId: string;
  /** A fresh message id per post, in OpenCode's shape (default `openCodeMessageIds(now)`). */
  readonly newMessageId?: () => string;
}

interface Sent {
  readonly item: DoorMessageItem;
  readonly content: string;
  readonly messageId: string;
  readonly postedAt: number;
  /** OpenCode answered the post (204); else the post's fate is unknown. */
  readonly answered: boolean;
}

/**
 * The OpenCode door under Brigade's shared push lane (docs/49-opencode.md "The door"): takes the
 * pipeline's head in server order when the pacer allows it (a head with files first has them
 * received, `settleFiles`: a message never reaches the model before its files) and posts its
 * sentinel + frame into
 * the session (`prompt_async`, one text part) under a message id of Brigade's making, one post at
 * a time. {@link confirm} reads each posted id back (`GET /session/{id}/message/{messageId}`):
 * a user message holding exactly our text → the pipeline's `done` and an ack; missing → kept,
 * and given back unacked (the server delivers it again) only after
 * {@link OPENCODE_MISSING_GIVE_UP_MS} (answered) or {@link OPENCODE_UNSURE_GRACE_MS} (no
 * answer; no post goes out while such a one is unsettled, so server order holds); another
 * message under our id → given back unacked. **An id is never posted twice** (OpenCode appends a
 * second part to an existing id): a post that got no answer is settled by reading the id back,
 * never by posting it again. A notice is posted as a message of its own and done at once. A
 * refused post (404: the session is gone; another 4xx) is done unacked (a gone session also
 * closes the door). Nothing is ever reported held or refused: OpenCode holds nothing for review.
 * Never throws.
 *
 * @example const door = new OpenCodeDoor({ context, server: openCodeServer({ origin }), sessionId });
 */
export class OpenCodeDoor implements DeliveryDoor {
  readonly #o: OpenCodeDoorOptions;
  readonly #newId: () => string;
  readonly #sent = new Map<string, Sent>();
  #confirming: Promise<void> | undefined;
  #closed = false;

  constructor(options: OpenCodeDoorOptions) {
    this.#o = options;
    this.#newId = options.newMessageId ?? openCodeMessageIds(options.context.now);
  }

  get outstanding(): number {
    return this.#sent.size;
  }

  async step(): Promise<DoorStep> {
    if (this.#closed) return "nothing";
    const { pipeline, pacer, now, log } = this.#o.context;
    if (this.#o.context.pipeline.peek() === undefined) return "nothing";
    // A post without an answer may or may not be stored: nothing goes out behind it until it is
    // settled, so a message given back is never overtaken by a later one of its sender.
    for (const sent of this.#sent.values()) if (!sent.answered) return "paced";
    const next = await takeNextPost(this.#o.context);
    if ("step" in next) return next.step;
    const { item, content } = next;
    const id = item.kind === "message" ? item.message.message_id : item.notice;
    const messageId = this.#newId();
    const result = await this.#o.server.post(this.#o.sessionId, messageId, content);
    if (result.ok || !result.sure) pacer.record(now(), content);
    if (item.kind === "notice") {
      pipeline.done(item, result.ok ? undefined : result.reason);
      return result.ok ? "posted" : "failed";
    }
    if (!result.ok && result.sure) {
      // A gone session takes no more posts: the door closes, and the lane gives the rest back.
      if (result.reason === "opencode_session_gone") this.#closed = true;
      log("warn", "post_failed", { item: id, reason: result.reason });
      pipeline.done(item, result.reason);
      return "failed";
    }
    this.#sent.set(messageId, { item, content, messageId, postedAt: now(), answered: result.ok });
    if (!result.ok) {
      log("warn", "post_unanswered", { item: id, reason: result.reason });
      return "failed";
    }
    log("info", "posted", { item: id, opencode_message: messageId });
    return "posted";
  }

  confirm(): Promise<void> {
    this.#confirming ??= this.#confirmOnce().finally(() => {
      this.#confirming = undefined;
    });
    return this.#confirming;
  }

  async #confirmOnce(): Promise<void> {
    const { pipeline, pacer, now, log, ack } = this.#o.context;
    for (const sent of [...this.#sent.values()]) {
      const stored = await this.#o.server.message(this.#o.sessionId, sent.messageId);
      if (!this.#sent.has(sent.messageId) || stored.state === "unknown") continue;
      const messageId = sent.item.message.message_id;
      if (stored.state === "present") {
        this.#sent.delete(sent.messageId);
        if (stored.role !== "user" || !stored.texts.includes(sent.content)) {
          log("warn", "opencode_mismatch", { message_id: messageId });
          pipeline.done(sent.item, "opencode_mismatch");
          continue;
        }
        const done = pipeline.done(sent.item);
        log("info", "in_conversation", { message_id: messageId });
        if (done.ack) ack(done.messageId);
        continue;
      }
      const waited = now() - sent.postedAt;
      const limit = sent.answered ? OPENCODE_MISSING_GIVE_UP_MS : OPENCODE_UNSURE_GRACE_MS;
      if (waited < limit) continue;
      this.#sent.delete(sent.messageId);
      const reason = sent.answered ? "opencode_missing" : "opencode_unreachable";
      log("warn", reason, { message_id: messageId });
      pipeline.done(sent.item, reason);
    }
    pacer.observeClaudeQueue(now(), this.#sent.size);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#confirming;
  }
}
