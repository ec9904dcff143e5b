import { randomUUID } from "node:crypto";
import type {
  DeliveryDoor,
  DoorContext,
  DoorMessageItem,
  DoorStep,
} from "../host-session/index.ts";
import { takeNextPost } from "../host-session/index.ts";
import type { CodexCallResult, CodexNotification } from "./codex-app-server.ts";

/**
 * **[ours]** The prefix of the `clientUserMessageId` Brigade gives its inputs: `brigade:<message
 * id>` for a message (the same on every post of it, so the record tells whether it is there),
 * `brigade:notice:<uuid>` for a notice.
 */
export const CODEX_CLIENT_MESSAGE_PREFIX = "brigade:";

/** The most turns one read of the record asks for (`thread/turns/list` `limit`). */
export const CODEX_RECORD_TURNS_MAX = 20;

/**
 * **[ours]** How long a message Codex accepted may stay out of the record while the thread is
 * idle before it goes back to the server unacked, ms (a steer into a turn that ended without
 * taking it). Its client id keeps it from entering twice if it shows up later.
 */
export const CODEX_UNRECORDED_GIVE_BACK_MS = 30_000;

/** What the door needs of an app-server connection ({@link CodexAppServer} is one). */
export interface CodexThreadPort {
  call(method: string, params: Record<string, unknown>): Promise<CodexCallResult>;
  onNotification(listener: (note: CodexNotification) => void): () => void;
  close(): void;
  readonly closed: boolean;
}

/** Why {@link CodexDoor.attach} found no door: the thread is not live in that app-server. */
export type CodexAttachResult =
  | { readonly ok: true; readonly door: CodexDoor }
  | { readonly ok: false; readonly reason: "not_loaded" | "read_failed" };

interface Posted {
  readonly item: DoorMessageItem;
  readonly clientId: string;
  readonly at: number;
  /** The post timed out: Codex may or may not have taken it. */
  readonly unknown: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `clientUserMessageId` Brigade gives a message: the same on every post of it. */
export function codexClientId(messageId: string): string {
  return `${CODEX_CLIENT_MESSAGE_PREFIX}${messageId}`;
}

/** The input of one user message: the exact text, no UI spans. */
function textInput(text: string): Record<string, unknown>[] {
  return [{ type: "text", text, text_elements: [] }];
}

/**
 * The Codex door (docs/49-codex.md "The push lane"): one live thread of a Codex app-server that
 * Brigade reaches over its socket. Each message's text (`ctx.textOf`: sentinel + frame) goes in as
 * one user input with `clientUserMessageId` `brigade:<message id>`: `turn/start` when the thread is
 * idle, `turn/steer` with the expected turn id while a turn runs (the running turn is read from the
 * record before each post; a steer that finds another turn or none is tried once more the other
 * way). A message counts as delivered only when the thread's own record (`thread/turns/list`)
 * holds a user message with that client id: only then the pipeline's `done` and an ack. Never uses
 * the thread queue (Codex drops the queue of a thread never resumed). Never subscribes to the
 * thread (`thread/resume`): a subscriber keeps the thread loaded after the person's client left,
 * and Codex ends the session (SessionEnd, `thread/closed`) only when it unloads the thread.
 * A message whose id the record already holds is never posted again. A post Codex refused goes back
 * to the server unacked; one whose answer timed out waits like one accepted, and nothing is posted
 * behind it meanwhile; one the record still lacks {@link CODEX_UNRECORDED_GIVE_BACK_MS} after it
 * while the thread is idle goes back unacked. Never throws.
 *
 * @example
 * const attached = await CodexDoor.attach(ctx, server, threadId);
 * if (attached.ok) await attached.door.step();
 */
export class CodexDoor implements DeliveryDoor {
  readonly #ctx: DoorContext;
  readonly #server: CodexThreadPort;
  readonly #threadId: string;
  readonly #posted = new Map<string, Posted>();
  /** Client ids of ours the record was seen to hold. */
  readonly #recorded = new Set<string>();
  #activeTurn: string | undefined;
  #threadGone = false;
  #closed = false;
  readonly #unsubscribe: () => void;

  private constructor(ctx: DoorContext, server: CodexThreadPort, threadId: string) {
    this.#ctx = ctx;
    this.#server = server;
    this.#threadId = threadId;
    this.#unsubscribe = server.onNotification((note) => this.#onNote(note));
  }

  /**
   * Attaches to `threadId` of the app-server behind `server`: only a thread that app-server has
   * loaded (a live session: `thread/loaded/list`), never one loaded from disk here; then a read of
   * its latest turns (the running turn, and the client ids already recorded).
   */
  static async attach(
    ctx: DoorContext,
    server: CodexThreadPort,
    threadId: string,
  ): Promise<CodexAttachResult> {
    const loaded = await server.call("thread/loaded/list", {});
    const ids = loaded.ok && Array.isArray(loaded.result.data) ? loaded.result.data : [];
    if (!ids.includes(threadId)) return { ok: false, reason: "not_loaded" };
    const door = new CodexDoor(ctx, server, threadId);
    if ((await door.#readRecord(CODEX_RECORD_TURNS_MAX)) !== undefined) {
      door.#unsubscribe();
      return { ok: false, reason: "read_failed" };
    }
    return { ok: true, door };
  }

  get outstanding(): number {
    return this.#posted.size;
  }

  /** The turn Codex ran at the door's last read of the record or its own start (`undefined`: idle). */
  get activeTurn(): string | undefined {
    return this.#activeTurn;
  }

  /** Whether Codex unloaded the thread (`thread/closed`): the session ended; nothing is posted after. */
  get threadClosed(): boolean {
    return this.#threadGone;
  }

  async step(): Promise<DoorStep> {
    if (this.#closed || this.#threadGone || this.#server.closed) return "nothing";
    // Nothing goes behind a post whose fate is unknown: given back, it would be overtaken.
    for (const posted of this.#posted.values()) if (posted.unknown) return "nothing";
    const { pipeline, pacer, now } = this.#ctx;
    const next = await takeNextPost(this.#ctx);
    if ("step" in next) return next.step;
    const { item, content } = next;
    const clientId =
      item.kind === "message"
        ? codexClientId(item.message.message_id)
        : `${CODEX_CLIENT_MESSAGE_PREFIX}notice:${randomUUID()}`;
    if (item.kind === "message" && this.#recorded.has(clientId)) {
      // Already in the conversation (an earlier post the ack of which was lost): never twice.
      this.#settle(item, clientId);
      return "nothing";
    }
    const sent = await this.#post(clientId, content);
    if (sent.ok || sent.reason !== "rpc") pacer.record(now(), content);
    const id = item.kind === "message" ? item.message.message_id : item.notice;
    if (!sent.ok && sent.reason === "timeout" && item.kind === "message") {
      // It may be in the thread: the record decides (acked), or the give-back does.
      this.#ctx.log("warn", "codex_post_unknown", { item: id, reason: sent.reason });
      this.#posted.set(clientId, { item, clientId, at: now(), unknown: true });
      return "posted";
    }
    if (!sent.ok) {
      this.#ctx.log("warn", "codex_post_failed", {
        item: id,
        reason: sent.reason === "rpc" ? `rpc_${sent.code}` : sent.reason,
      });
      pipeline.done(item, `codex_${sent.reason}`);
      return "failed";
    }
    this.#ctx.log("info", "posted", { item: id, via: sent.via });
    if (item.kind === "notice") pipeline.done(item);
    else this.#posted.set(clientId, { item, clientId, at: now(), unknown: false });
    return "posted";
  }

  async confirm(): Promise<void> {
    if (this.#posted.size > 0 && !this.#server.closed) await this.#readRecord();
    const now = this.#ctx.now();
    for (const [clientId, posted] of this.#posted) {
      if (this.#recorded.has(clientId)) {
        this.#settle(posted.item, clientId);
      } else if (
        (this.#activeTurn === undefined || this.#threadGone || this.#server.closed) &&
        now - posted.at >= CODEX_UNRECORDED_GIVE_BACK_MS
      ) {
        this.#posted.delete(clientId);
        this.#ctx.log("warn", "codex_not_recorded", { message_id: posted.item.message.message_id });
        this.#ctx.pipeline.done(posted.item, "codex_not_recorded");
      }
    }
    this.#ctx.pacer.observeClaudeQueue(now, this.#posted.size);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    this.#server.close();
  }

  #settle(item: DoorMessageItem, clientId: string): void {
    this.#posted.delete(clientId);
    const done = this.#ctx.pipeline.done(item);
    this.#ctx.log("info", "in_conversation", { message_id: item.message.message_id });
    if (done.ack) this.#ctx.ack(done.messageId);
  }

  /** `turn/steer` into the running turn, else `turn/start`; one retry the other way. */
  async #post(
    clientId: string,
    text: string,
  ): Promise<{ ok: true; via: "steer" | "start" } | Extract<CodexCallResult, { ok: false }>> {
    // The running turn, as the record tells it now (no turn events reach an unsubscribed client).
    let last = await this.#readRecord();
    if (last !== undefined) return last;
    if (this.#recorded.has(clientId)) return { ok: true, via: "start" };
    for (let attempt = 0; attempt < 2; attempt++) {
      const turn = this.#activeTurn;
      const answer =
        turn === undefined
          ? await this.#server.call("turn/start", {
              threadId: this.#threadId,
              input: textInput(text),
              clientUserMessageId: clientId,
            })
          : await this.#server.call("turn/steer", {
              threadId: this.#threadId,
              input: textInput(text),
              expectedTurnId: turn,
              clientUserMessageId: clientId,
            });
      if (answer.ok) {
        if (turn === undefined) {
          const started = answer.result.turn;
          if (isRecord(started) && typeof started.id === "string") this.#activeTurn = started.id;
        }
        return { ok: true, via: turn === undefined ? "start" : "steer" };
      }
      last = answer;
      // The turn ended or another began meanwhile: read which, and try once more.
      if (answer.reason !== "rpc" || (await this.#readRecord()) !== undefined) break;
      if (this.#recorded.has(clientId))
        return { ok: true, via: turn === undefined ? "start" : "steer" };
    }
    return last ?? { ok: false, reason: "closed" };
  }

  /**
   * Reads the thread's latest turns (newest first, items in full): the running turn, if any, and
   * every client id of ours its user messages hold (added to what was seen before). `undefined`
   * when read, else why not.
   */
  async #readRecord(
    limit = Math.min(CODEX_RECORD_TURNS_MAX, this.#posted.size + 2),
  ): Promise<Extract<CodexCallResult, { ok: false }> | undefined> {
    const answer = await this.#server.call("thread/turns/list", {
      threadId: this.#threadId,
      limit,
      sortDirection: "desc",
      itemsView: "full",
    });
    if (!answer.ok) return answer;
    if (!Array.isArray(answer.result.data)) return { ok: false, reason: "bad_answer" };
    let active: string | undefined;
    for (const turn of answer.result.data) {
      if (!isRecord(turn)) continue;
      if (turn.status === "inProgress" && typeof turn.id === "string" && active === undefined)
        active = turn.id;
      if (!Array.isArray(turn.items)) continue;
      for (const item of turn.items) {
        if (
          isRecord(item) &&
          item.type === "userMessage" &&
          typeof item.clientId === "string" &&
          item.clientId.startsWith(CODEX_CLIENT_MESSAGE_PREFIX)
        )
          this.#recorded.add(item.clientId);
      }
    }
    this.#activeTurn = active;
    return undefined;
  }

  /**
   * The notifications every client of the app-server gets, subscribed or not (0.171.0):
   * `thread/closed` (the thread was unloaded: the session ended) and `thread/status/changed`
   * (a turn began or ended: a good moment to look at the record).
   */
  #onNote(note: CodexNotification): void {
    if (note.params.threadId !== this.#threadId) return;
    if (note.method === "thread/closed") {
      this.#threadGone = true;
    } else if (note.method === "thread/status/changed" && this.#posted.size > 0) {
      void this.confirm();
    }
  }
}
