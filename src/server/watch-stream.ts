import { MAX_RECEIVE_LIMIT, notMemberError } from "../protocol/index.ts";
import type { BrigadeService, WatchSubscription } from "../service/index.ts";
import type { WatchRegistry, WatchSlot } from "./watch-registry.ts";
import { wireErrorOf } from "./wire-error.ts";

/** How often an idle stream gets a keep-alive comment, in ms. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Bytes of events a stream holds for a connection that has not taken them yet. While the stream
 * holds this much, it fetches no more messages: the reader's pace sets the stream's.
 */
export const WATCH_HIGH_WATER_BYTES: number = 64 * 1024;

/** Messages fetched from the store at a time for one stream. */
const FETCH_BATCH = 16;

/** The caller of one watch: who, in which team, for which owned session. */
export interface WatchTarget {
  readonly principalRef: string;
  readonly teamRef: string;
  readonly sessionId: string;
}

const encoder = new TextEncoder();

function sseEvent(event: string, data: unknown, id?: string): Uint8Array {
  // JSON.stringify never emits a raw newline, so `data` is always one line.
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return encoder.encode(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`);
}

/**
 * Opens `message watch` as a Server-Sent Events response (docs/30-http-api.md). First a slot is
 * claimed in `registry` (over a cap: `BapError` `rate_limited`), then ownership and membership are
 * checked before the response starts, so any failure is an ordinary error reply: this function
 * rejects with the service's `BapError`. Then: subscribe, `ready`, the catch-up of every
 * unacknowledged message oldest first, then each new message right after its commit. A message
 * goes out at most once per connection, and only as fast as the connection takes the bytes.
 *
 * The watch ends, releasing its subscription, keep-alive timer and slot, when the client goes away
 * (`signal` aborts, or the body is cancelled), when its membership is revoked (final `error`
 * `unauthorized`), when the server shuts down (final `shutdown`), or when the reader falls more
 * than `registry.limits.backlog` messages behind (final `overflow`, the unsent messages dropped
 * from the stream; they stay unacknowledged in the store). `onMessage` is called once per
 * `message` event written (the server's delivery count).
 */
export async function openWatchStream(
  service: BrigadeService,
  target: WatchTarget,
  registry: WatchRegistry,
  signal?: AbortSignal,
  onMessage?: () => void,
): Promise<Response> {
  const slot = registry.claim(target.principalRef, target.sessionId);
  const watch = new WatchConnection(service, target, slot, registry.limits.backlog, onMessage);
  try {
    await watch.subscribe();
  } catch (error) {
    slot.release();
    throw error;
  }
  watch.endWhenAborted(signal);
  return new Response(watch.body(), {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}

/** One watch: the subscription, the messages owed, and the bytes the connection has not taken. */
class WatchConnection {
  readonly #service: BrigadeService;
  readonly #target: WatchTarget;
  readonly #slot: WatchSlot;
  readonly #backlog: number;
  /** Encoded events waiting for the connection, oldest first. */
  readonly #outbox: Uint8Array[] = [];
  #outboxBytes = 0;
  /** Ids heard of (or found by the catch-up) and not yet fetched, in delivery order. */
  #owed = new Set<string>();
  readonly #sent = new Set<string>();
  #subscription: WatchSubscription | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #dropSignal: (() => void) | undefined;
  /** The subscription and slot are released; nothing but a final event is written after. */
  #finished = false;
  /** No event follows what the outbox holds: the body closes once it is drained. */
  #ending = false;
  #revoked = false;
  #wakePump: (() => void) | undefined;
  #wakeReader: (() => void) | undefined;
  readonly #onMessage: (() => void) | undefined;

  constructor(
    service: BrigadeService,
    target: WatchTarget,
    slot: WatchSlot,
    backlog: number,
    onMessage?: () => void,
  ) {
    this.#service = service;
    this.#target = target;
    this.#slot = slot;
    this.#backlog = backlog;
    this.#onMessage = onMessage;
  }

  async subscribe(): Promise<void> {
    const { principalRef, teamRef, sessionId } = this.#target;
    this.#subscription = await this.#service.subscribe(principalRef, teamRef, sessionId, {
      onMessages: (ids) => this.#owe(ids, true),
      onRevoked: () => {
        this.#revoked = true;
        this.#wakePump?.();
      },
    });
    this.#slot.attach(this);
    this.#write(sseEvent("ready", { session_id: sessionId, mode: "push" }));
    this.#keepAlive = setInterval(() => {
      // A keep-alive only matters on a quiet line; behind queued events it would only add bytes.
      if (this.#outbox.length === 0) this.#write(encoder.encode(": keep-alive\n\n"));
    }, KEEP_ALIVE_MS);
    this.#keepAlive.unref?.();
    void this.#pump();
  }

  /** Ties the watch to the request: an abort (the client went away) ends it at once. */
  endWhenAborted(signal: AbortSignal | undefined): void {
    if (signal === undefined) return;
    if (signal.aborted) {
      this.#abandon();
      return;
    }
    const onAbort = (): void => this.#abandon();
    signal.addEventListener("abort", onAbort, { once: true });
    this.#dropSignal = () => signal.removeEventListener("abort", onAbort);
  }

  /** The response body: each read takes the oldest waiting event. */
  body(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (this.#outbox.length === 0 && !this.#ending) {
            await new Promise<void>((resolve) => {
              this.#wakeReader = resolve;
            });
          }
          this.#wakeReader = undefined;
          const chunk = this.#outbox.shift();
          try {
            if (chunk === undefined) {
              controller.close();
              return;
            }
            this.#outboxBytes -= chunk.byteLength;
            controller.enqueue(chunk);
          } catch {
            // The body was cancelled meanwhile.
            return;
          }
          if (this.#outboxBytes < WATCH_HIGH_WATER_BYTES) this.#wakePump?.();
        },
        cancel: () => this.#abandon(),
      },
      // Nothing is pulled ahead of a read: the outbox is the only buffer.
      { highWaterMark: 0 },
    );
  }

  /** Writes a final event after what is queued (or instead of it), then closes. Idempotent. */
  end(event: string, data: unknown, discardQueued = false): void {
    if (this.#ending) return;
    if (discardQueued) this.#clearOutbox();
    if (!this.#finished) this.#write(sseEvent(event, data));
    this.#ending = true;
    this.#finish();
    this.#wakeReader?.();
  }

  /** The client went away: nothing more is written, and what was queued is freed. */
  #abandon(): void {
    this.#clearOutbox();
    this.#ending = true;
    this.#finish();
    this.#wakeReader?.();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#subscription?.unsubscribe();
    this.#slot.release();
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#dropSignal?.();
    this.#owed.clear();
    this.#wakePump?.();
  }

  #clearOutbox(): void {
    this.#outbox.length = 0;
    this.#outboxBytes = 0;
  }

  #write(chunk: Uint8Array): void {
    if (this.#finished) return;
    this.#outbox.push(chunk);
    this.#outboxBytes += chunk.byteLength;
    this.#wakeReader?.();
  }

  /**
   * Adds ids to what the stream owes its reader. Only new traffic is held against the backlog:
   * the catch-up is bounded by the inbox cap, and a reader that just connected is not behind.
   */
  #owe(ids: readonly string[], bounded: boolean): void {
    if (this.#finished) return;
    for (const id of ids) if (!this.#sent.has(id)) this.#owed.add(id);
    if (bounded && this.#owed.size > this.#backlog) {
      this.end("overflow", {}, true);
      return;
    }
    this.#wakePump?.();
  }

  #sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wakePump = resolve;
    });
  }

  async #pump(): Promise<void> {
    const { principalRef, teamRef, sessionId } = this.#target;
    try {
      const catchUp = await this.#service.receiveMessages(
        principalRef,
        teamRef,
        sessionId,
        MAX_RECEIVE_LIMIT,
      );
      // The catch-up goes first; ids heard while it was read follow it.
      const heard = this.#owed;
      this.#owed = new Set();
      this.#owe([...catchUp.messages.map((m) => m.message_id), ...heard], false);
      while (!this.#finished) {
        if (this.#revoked) {
          this.end("error", notMemberError());
          return;
        }
        if (this.#owed.size === 0 || this.#outboxBytes >= WATCH_HIGH_WATER_BYTES) {
          await this.#sleep();
          this.#wakePump = undefined;
          continue;
        }
        const ids = [...this.#owed].slice(0, FETCH_BATCH);
        for (const id of ids) this.#owed.delete(id);
        const messages = await this.#service.fetchMessages(principalRef, teamRef, sessionId, ids);
        for (const message of messages) {
          if (this.#sent.has(message.message_id)) continue;
          this.#sent.add(message.message_id);
          this.#write(sseEvent("message", message, message.message_id));
          this.#onMessage?.();
        }
      }
    } catch (error) {
      this.end("error", wireErrorOf(error));
    }
  }
}
