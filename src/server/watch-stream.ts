import {
  BapError,
  internalError,
  type MessageEnvelope,
  notMemberError,
  type ProtocolError,
} from "../protocol/index.ts";
import type { BrigadeService, WatchSubscription } from "../service/index.ts";

/** How often an idle stream gets a keep-alive comment, in ms. */
export const KEEP_ALIVE_MS = 15_000;

/** The caller of one watch: who, in which team, for which owned session. */
export interface WatchTarget {
  readonly principalRef: string;
  readonly teamRef: string;
  readonly sessionId: string;
}

/** The open watch streams of a server, so shutdown can say goodbye to each. */
export class WatchRegistry {
  readonly #open = new Set<{ end: (event: string, data: unknown) => void }>();

  /** Ends every open stream with a final `shutdown` event. */
  shutdownAll(): void {
    for (const stream of [...this.#open]) stream.end("shutdown", {});
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size;
  }

  /** @internal Tracks a stream until it ends. */
  track(stream: { end: (event: string, data: unknown) => void }): () => void {
    this.#open.add(stream);
    return () => this.#open.delete(stream);
  }
}

const encoder = new TextEncoder();

function sseEvent(event: string, data: unknown, id?: string): Uint8Array {
  // JSON.stringify never emits a raw newline, so `data` is always one line.
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return encoder.encode(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`);
}

/**
 * Opens `message watch` as a Server-Sent Events response (docs/30-http-api.md). Ownership and
 * membership are checked before the response starts, so a failure is an ordinary error reply:
 * this function rejects with the service's `BapError`. Then: subscribe, `ready`, the catch-up of
 * every unacknowledged message oldest first, then each new message right after its commit. A
 * message goes out at most once per connection. A revoked membership ends the stream with an
 * `unauthorized` `error` event; server shutdown ends it with `shutdown`.
 */
export async function openWatchStream(
  service: BrigadeService,
  target: WatchTarget,
  registry: WatchRegistry,
): Promise<Response> {
  const { principalRef, teamRef, sessionId } = target;
  const pendingIds: string[] = [];
  let wake: (() => void) | undefined;
  let revoked = false;
  const subscription: WatchSubscription = await service.subscribe(
    principalRef,
    teamRef,
    sessionId,
    {
      onMessages(ids) {
        pendingIds.push(...ids);
        wake?.();
      },
      onRevoked() {
        revoked = true;
        wake?.();
      },
    },
  );

  let closed = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  let untrack: () => void = () => {};
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const finish = (): void => {
    if (closed) return;
    closed = true;
    subscription.unsubscribe();
    untrack();
    if (keepAlive !== undefined) clearInterval(keepAlive);
    wake?.();
  };
  const write = (chunk: Uint8Array): void => {
    if (closed || controllerRef === undefined) return;
    try {
      controllerRef.enqueue(chunk);
    } catch {
      finish();
    }
  };
  const end = (event: string, data: unknown): void => {
    if (closed) return;
    write(sseEvent(event, data));
    const controller = controllerRef;
    finish();
    try {
      controller?.close();
    } catch {
      // Already closed by the client.
    }
  };

  const sent = new Set<string>();
  const emit = (messages: readonly MessageEnvelope[]): void => {
    for (const message of messages) {
      if (sent.has(message.message_id)) continue;
      sent.add(message.message_id);
      write(sseEvent("message", message, message.message_id));
    }
  };

  const pump = async (): Promise<void> => {
    try {
      const catchUp = await service.receiveMessages(principalRef, teamRef, sessionId, 200);
      emit(catchUp.messages);
      while (!closed) {
        if (revoked) {
          end("error", notMemberError());
          return;
        }
        if (pendingIds.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        const ids = pendingIds.splice(0, pendingIds.length).filter((id) => !sent.has(id));
        if (ids.length > 0) {
          emit(await service.fetchMessages(principalRef, teamRef, sessionId, ids));
        }
      }
    } catch (error) {
      const wire: ProtocolError =
        error instanceof BapError ? error.toProtocolError() : internalError();
      end("error", wire);
    }
  };

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller;
      untrack = registry.track({ end });
      write(sseEvent("ready", { session_id: sessionId, mode: "push" }));
      keepAlive = setInterval(() => write(encoder.encode(": keep-alive\n\n")), KEEP_ALIVE_MS);
      keepAlive.unref?.();
      void pump();
    },
    cancel() {
      finish();
    },
  });

  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
