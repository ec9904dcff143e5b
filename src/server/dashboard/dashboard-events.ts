import type { BrigadeService, WebIdentity } from "../../service/index.ts";
import { LIVE_REGIONS, type LiveRegion, liveRegion } from "./dashboard-pages.ts";

/**
 * How often an open dashboard stream reads its view again without being told of a change, ms:
 * what another server process of a shared database changed, and what time alone changes (a
 * lease that runs out), reach the page within this. **[ours]**
 */
export const DASHBOARD_RECHECK_MS = 5_000;

/** The shortest time between two reads of one stream's view, ms: a burst of changes is one read. */
export const DASHBOARD_SETTLE_MS = 150;

/** A comment line is sent when nothing else was for this long, ms (as the watch stream does). */
const KEEP_ALIVE_MS = 15_000;

/**
 * Tells this process's open dashboard streams that something of a team changed (a send, an ack,
 * a report, a session, an admin change): each stream of that team reads its view again at once.
 */
export class TeamBell {
  readonly #listeners = new Map<string, Set<() => void>>();

  /** Calls `listener` at every ring of `teamRef` until the returned function is called. */
  listen(teamRef: string, listener: () => void): () => void {
    let set = this.#listeners.get(teamRef);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(teamRef, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(teamRef);
    };
  }

  /** Rings `teamRef`'s listeners. */
  ring(teamRef: string): void {
    for (const listener of this.#listeners.get(teamRef) ?? []) listener();
  }
}

/** The open dashboard streams of one server, so shutdown can end each. */
export class DashboardStreams {
  readonly #open = new Set<() => void>();

  /** Streams open now. */
  get size(): number {
    return this.#open.size;
  }

  /** Registers a stream's `end`; the returned function unregisters it. */
  add(end: () => void): () => void {
    this.#open.add(end);
    return () => this.#open.delete(end);
  }

  /** Ends every open stream (server shutdown): each sends `shutdown` and closes. */
  shutdownAll(): void {
    for (const end of [...this.#open]) end();
  }
}

/**
 * The `text/event-stream` of one signed-in page: each time a live region's markup changes
 * (after a ring of the person's team, or every {@link DASHBOARD_RECHECK_MS}), one `regions`
 * event with `{<region>: "<markup>"}` of the changed regions only. `signed-out` (and the stream
 * ends) once the browser session stops being valid; `shutdown` when the server stops. The page
 * never polls: it only listens. The stream's own reads are bounded by the settle time and the
 * recheck period.
 */
export function openDashboardStream(
  service: BrigadeService,
  identity: WebIdentity,
  sessionSecret: string,
  csrf: string,
  bell: TeamBell,
  streams: DashboardStreams,
  signal: AbortSignal,
): Response {
  const encoder = new TextEncoder();
  const sent = new Map<LiveRegion, string>();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  let reading = false;
  let again = false;
  let lastWrite = Date.now();
  let settleTimer: NodeJS.Timeout | undefined;

  const write = (text: string): void => {
    if (closed || controller === undefined) return;
    lastWrite = Date.now();
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      finish();
    }
  };
  const event = (name: string, data: unknown): void =>
    write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

  const read = async (): Promise<void> => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const still = await service.webIdentity(sessionSecret);
      if (still === null) {
        event("signed-out", {});
        finish();
        return;
      }
      const view = await service.dashboardView(identity.principalRef, identity.teamRef);
      const changed: Record<string, string> = {};
      for (const region of LIVE_REGIONS) {
        const markup = liveRegion(region, view, csrf).text;
        if (sent.get(region) === markup) continue;
        sent.set(region, markup);
        changed[region] = markup;
      }
      if (Object.keys(changed).length > 0) event("regions", changed);
      else if (Date.now() - lastWrite >= KEEP_ALIVE_MS) write(": keep-alive\n\n");
    } catch {
      // A store that cannot answer now: the next ring or recheck tries again.
    } finally {
      reading = false;
    }
    if (again) {
      again = false;
      schedule();
    }
  };
  const schedule = (): void => {
    if (closed || settleTimer !== undefined) return;
    settleTimer = setTimeout(() => {
      settleTimer = undefined;
      void read();
    }, DASHBOARD_SETTLE_MS);
  };

  const stopListening = bell.listen(identity.teamRef, schedule);
  const recheck = setInterval(() => void read(), DASHBOARD_RECHECK_MS);
  const unregister = streams.add(() => {
    event("shutdown", {});
    finish();
  });
  function finish(): void {
    if (closed) return;
    closed = true;
    clearInterval(recheck);
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    stopListening();
    unregister();
    signal.removeEventListener("abort", finish);
    try {
      controller?.close();
    } catch {
      // Already closed by the client going away.
    }
  }
  signal.addEventListener("abort", finish);

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      // The page's regions were rendered with the page; the first read sends what changed since.
      write("retry: 3000\n\n");
      schedule();
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
