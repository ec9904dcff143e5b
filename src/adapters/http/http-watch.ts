import {
  type AckResult,
  type HeartbeatResult,
  internalError,
  isBapError,
  PROTOCOL_VERSION,
  type ProtocolError,
  parseJsonDocument,
  parseStrictJson,
  validateEnvelope,
  validateMessageEnvelope,
  validateProtocolError,
  type WatchCommand,
  type WatchEvent,
  type WatchHandle,
} from "../../protocol/index.ts";
import type { AdapterLogger } from "../adapter-logger.ts";
import { EventQueue } from "../event-queue.ts";
import { isAbortLike, segment } from "./http-client.ts";
import { readBoundedBody } from "./read-bounded-body.ts";
import { type SseEvent, SseParser } from "./sse-parser.ts";

/** Where and as whom a watch connects; resolved again before each (re)connect. */
export interface WatchTarget {
  readonly baseUrl: string;
  readonly token: string;
  readonly teamRef: string;
}

/** What an {@link HttpWatch} needs from its adapter. */
export interface HttpWatchDeps {
  readonly sessionId: string;
  /** Local profile and credential; throws a `BapError` (`config`, `unauthenticated`). */
  readonly target: () => WatchTarget;
  readonly fetch: typeof fetch;
  readonly logger: AdapterLogger;
  /** Budget for the stream's response headers, in ms. */
  readonly connectTimeoutMs: number;
  /** A stream silent this long is treated as dropped, in ms. */
  readonly idleTimeoutMs: number;
  readonly backoff: { readonly first: number; readonly max: number };
  readonly ack: (ids: string[]) => Promise<AckResult>;
  readonly heartbeat: (
    command: Omit<WatchCommand & { type: "heartbeat" }, "type">,
  ) => Promise<HeartbeatResult>;
  readonly closeSession: () => Promise<unknown>;
}

// A refusal is one small error envelope; a larger body is not read past this.
const MAX_REFUSAL_BYTES = 1024 * 1024;

/**
 * Events buffered for the consumer before the stream is read further: the queue holds at most
 * this many plus what one read chunk carried.
 */
export const WATCH_QUEUE_MAX_EVENTS = 1_000;

type StreamOutcome =
  | { readonly kind: "dropped"; readonly detail: string }
  | { readonly kind: "fatal" }
  | { readonly kind: "closed" };

/**
 * `message watch` over the server's Server-Sent Events route (docs/30-http-api.md,
 * docs/spec/protocol.md §5): `ready` (mode `push`) exactly once and first; then `message` events
 * (the catch-up, then new ones); a dropped stream reconnects with exponential backoff and reports
 * `status` (`reconnecting`, then `live`) — never before `ready`; a non-retryable failure (at
 * connect, or an `error` event from the server such as `unauthorized` after a leave) is emitted as
 * one `error` event and ends the stream. The server's `shutdown` and `overflow` (this reader fell
 * behind) are drops, not failures: they reconnect like a cut connection. Commands (`ack`,
 * `heartbeat`, `close`) run one at a time, in order, so at most one heartbeat is outstanding.
 * `close()` ends the stream at once.
 *
 * @example
 * const watch = new HttpWatch(deps);
 * for await (const e of watch) if (e.event === "message") await watch.send({ type: "ack", message_ids: [e.message.message_id] });
 */
export class HttpWatch implements WatchHandle {
  readonly #deps: HttpWatchDeps;
  readonly #queue = new EventQueue<WatchEvent>();
  readonly #log: AdapterLogger;
  #closed = false;
  #readySent = false;
  #current: AbortController | undefined;
  #wake: (() => void) | undefined;
  #commands: Promise<void> = Promise.resolve();

  constructor(deps: HttpWatchDeps) {
    this.#deps = deps;
    this.#log = deps.logger;
    void this.#run();
  }

  /** The event stream. */
  get events(): AsyncIterable<WatchEvent> {
    return this.#queue;
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return this.#queue[Symbol.asyncIterator]();
  }

  /** Queues one command; it runs after the previous ones finished. */
  send(command: WatchCommand): Promise<void> {
    const run = this.#commands.then(() => this.#execute(command));
    this.#commands = run.catch(() => {});
    return run;
  }

  /** Ends the watch (as stdin EOF): the session stays open. */
  close(): Promise<void> {
    this.#shutdown();
    return Promise.resolve();
  }

  #shutdown(): void {
    this.#closed = true;
    this.#current?.abort();
    this.#wake?.();
    this.#queue.end();
  }

  #emit(event: WatchEvent): void {
    if (!this.#closed) this.#queue.push(event);
  }

  /** Emits `error`; a non-retryable one ends the watch. */
  #fail(error: ProtocolError): void {
    this.#emit({ event: "error", error });
    if (!error.retryable) this.#shutdown();
  }

  async #execute(command: WatchCommand): Promise<void> {
    if (this.#closed) return;
    try {
      switch (command.type) {
        case "ack": {
          const r = await this.#deps.ack(command.message_ids);
          this.#emit({ event: "acked", message_ids: r.acked, unknown: r.unknown });
          return;
        }
        case "heartbeat": {
          const { type: _type, ...changes } = command;
          const r = await this.#deps.heartbeat(changes);
          this.#emit({ event: "heartbeat_ok", ...r });
          return;
        }
        case "close":
          await this.#deps.closeSession();
          this.#shutdown();
          return;
      }
    } catch (error) {
      this.#fail(isBapError(error) ? error.toProtocolError() : internalError());
      if (command.type === "close") this.#shutdown();
    }
  }

  async #run(): Promise<void> {
    let delay = this.#deps.backoff.first;
    while (!this.#closed) {
      const outcome = await this.#connectOnce(() => {
        delay = this.#deps.backoff.first;
      });
      if (outcome.kind !== "dropped" || this.#closed) break;
      this.#log.info("watch_stream_dropped", { detail: outcome.detail, retry_ms: delay });
      if (this.#readySent) {
        this.#emit({ event: "status", state: "reconnecting", detail: outcome.detail });
      }
      await this.#sleep(delay + Math.floor(Math.random() * (delay / 4)));
      delay = Math.min(delay * 2, this.#deps.backoff.max);
    }
    this.#shutdown();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  async #connectOnce(onLive: () => void): Promise<StreamOutcome> {
    let target: WatchTarget;
    try {
      target = this.#deps.target();
    } catch (error) {
      this.#fail(isBapError(error) ? error.toProtocolError() : internalError());
      return { kind: "fatal" };
    }
    const controller = new AbortController();
    this.#current = controller;
    const connectTimer = setTimeout(() => controller.abort(), this.#deps.connectTimeoutMs);
    let response: Response;
    try {
      response = await this.#deps.fetch(
        `${target.baseUrl}/v1/teams/${segment(target.teamRef)}/sessions/${segment(this.#deps.sessionId)}/watch`,
        {
          method: "GET",
          headers: { accept: "text/event-stream", authorization: `Bearer ${target.token}` },
          signal: controller.signal,
          redirect: "error",
        },
      );
    } catch (error) {
      clearTimeout(connectTimer);
      if (this.#closed) return { kind: "closed" };
      return { kind: "dropped", detail: isAbortLike(error) ? "connect_timeout" : "network" };
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.startsWith("text/event-stream")) {
      // The connect budget also covers reading the refusal: a body that never ends is a drop.
      try {
        return await this.#refused(response);
      } finally {
        clearTimeout(connectTimer);
      }
    }
    clearTimeout(connectTimer);
    return this.#readStream(response, controller, onLive);
  }

  async #refused(response: Response): Promise<StreamOutcome> {
    let bytes: Uint8Array;
    try {
      bytes = await readBoundedBody(response, MAX_REFUSAL_BYTES);
    } catch (error) {
      if (this.#closed) return { kind: "closed" };
      return { kind: "dropped", detail: isAbortLike(error) ? "connect_timeout" : "network" };
    }
    if (response.status >= 500) return { kind: "dropped", detail: "server_unavailable" };
    const parsed = parseJsonDocument(bytes, { maxBytes: MAX_REFUSAL_BYTES });
    const envelope = parsed.ok ? validateEnvelope(parsed.value) : undefined;
    if (envelope === undefined || !envelope.ok || envelope.value.ok) {
      this.#log.error("watch_refusal_not_envelope", { status: response.status });
      this.#fail(internalError());
      return { kind: "fatal" };
    }
    const error = envelope.value.error;
    if (error.retryable) {
      if (this.#readySent) this.#emit({ event: "error", error });
      return { kind: "dropped", detail: error.code };
    }
    this.#fail(error);
    return { kind: "fatal" };
  }

  async #readStream(
    response: Response,
    controller: AbortController,
    onLive: () => void,
  ): Promise<StreamOutcome> {
    const body = response.body;
    if (body === null) return { kind: "dropped", detail: "empty_stream" };
    const reader = body.getReader();
    const decoder = new TextDecoder("utf-8");
    let outcome: StreamOutcome | undefined;
    const parser = new SseParser((event) => {
      if (outcome === undefined) outcome = this.#onSse(event, onLive);
    });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = (): void => {
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), this.#deps.idleTimeoutMs);
    };
    armIdle();
    try {
      while (outcome === undefined) {
        const chunk = await reader.read();
        if (chunk.done) break;
        armIdle();
        parser.push(decoder.decode(chunk.value, { stream: true }));
        // A server may send faster than the watcher takes events: stop reading (TCP holds the
        // rest) until the consumer has caught up, so the queue stays bounded. The idle timer
        // rests meanwhile: a stream we chose not to read is not a silent one.
        clearTimeout(idle);
        await this.#queue.roomFor(WATCH_QUEUE_MAX_EVENTS);
        armIdle();
      }
    } catch {
      // Aborted (close, idle) or the connection broke: decided below.
    } finally {
      if (idle !== undefined) clearTimeout(idle);
      controller.abort();
      reader.releaseLock();
    }
    if (this.#closed) return { kind: "closed" };
    return outcome ?? { kind: "dropped", detail: "stream_ended" };
  }

  /** Handles one SSE event; returns an outcome when the stream must stop. */
  #onSse(event: SseEvent, onLive: () => void): StreamOutcome | undefined {
    switch (event.event) {
      case "ready":
        onLive();
        if (!this.#readySent) {
          this.#readySent = true;
          this.#emit({
            event: "ready",
            protocol_version: PROTOCOL_VERSION,
            session_id: this.#deps.sessionId,
            mode: "push",
          });
        } else {
          this.#emit({ event: "status", state: "live" });
        }
        return undefined;
      case "message": {
        const parsed = parseStrictJson(event.data);
        const message = parsed.ok ? validateMessageEnvelope(parsed.value) : undefined;
        if (message === undefined || !message.ok) {
          this.#log.error("watch_message_invalid", {
            field: message?.ok === false ? (message.error.details?.field ?? "") : "",
          });
          return undefined;
        }
        if (message.value.recipient_session_id !== this.#deps.sessionId) {
          this.#log.error("watch_message_foreign");
          return undefined;
        }
        if (!this.#readySent) return undefined;
        this.#emit({ event: "message", message: message.value });
        return undefined;
      }
      case "error": {
        const parsed = parseStrictJson(event.data);
        const error = parsed.ok ? validateProtocolError(parsed.value) : undefined;
        const wire = error?.ok === true ? error.value : internalError();
        if (wire.retryable) {
          if (this.#readySent) this.#emit({ event: "error", error: wire });
          return { kind: "dropped", detail: wire.code };
        }
        this.#fail(wire);
        return { kind: "fatal" };
      }
      case "shutdown":
        return { kind: "dropped", detail: "server_shutdown" };
      case "overflow":
        // The server dropped this reader for falling behind; what it did not send is still
        // unacknowledged, so the reconnect's catch-up brings it.
        return { kind: "dropped", detail: "server_overflow" };
      default:
        this.#log.debug("watch_unknown_sse_event");
        return undefined;
    }
  }
}
