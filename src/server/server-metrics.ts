import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { ERROR_CODES, type ErrorCode } from "../protocol/index.ts";
import type { Store } from "../service/index.ts";
import { DEFAULT_SERVER_LIMITS, SERVER_LIMIT_NAMES, type ServerLimits } from "./server-limits.ts";

/** How a message reached its reader: a `message receive` call or a `message watch` stream. */
export type DeliveryPath = "receive" | "watch";

/**
 * Upper bounds of the store latency histogram, seconds: from a group commit that shares its sync
 * (well under a millisecond of work) to a transaction stuck behind a slow disk.
 */
export const STORE_LATENCY_BUCKETS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/**
 * `brigade serve`'s Prometheus metrics (docs/50-operator.md, "Metrics"), in a registry of their
 * own. Every label value comes from a fixed set in this program (the version, an error code, a
 * delivery path), never from a request: no token, secret, team, session, address or text can
 * appear in a label.
 */
export class ServerMetrics {
  /** The registry `/metrics` renders. */
  readonly registry: Registry = new Registry();
  readonly #sent: Counter;
  readonly #delivered: Counter<"via">;
  readonly #acked: Counter;
  readonly #refusals: Counter<"code">;
  readonly #storeLatency: Histogram;

  /**
   * `openWatches` is read at each scrape for the `brigade_watches_open` gauge; `limits` (the
   * settable limits in force) are the `brigade_limit` gauge.
   */
  constructor(
    version: string,
    openWatches: () => number,
    limits: ServerLimits = DEFAULT_SERVER_LIMITS,
  ) {
    const registers = [this.registry];
    new Gauge({
      name: "brigade_info",
      help: "Always 1; the label names the running Brigade version.",
      labelNames: ["version"],
      registers,
    }).set({ version }, 1);
    this.#sent = new Counter({
      name: "brigade_messages_sent_total",
      help: "Messages accepted by message send (stored; an idempotent retry counts once more).",
      registers,
    });
    this.#delivered = new Counter({
      name: "brigade_messages_delivered_total",
      help: "Messages handed to a reader, by path: receive (one per message returned) or watch (one per stream event).",
      labelNames: ["via"],
      registers,
    });
    this.#acked = new Counter({
      name: "brigade_messages_acked_total",
      help: "Messages newly acknowledged by message ack.",
      registers,
    });
    new Gauge({
      name: "brigade_watches_open",
      help: "Message watch streams open now.",
      registers,
      collect() {
        this.set(openWatches());
      },
    });
    const limit = new Gauge({
      name: "brigade_limit",
      help: "A settable limit in force (brigade serve --limit), by name.",
      labelNames: ["name"],
      registers,
    });
    for (const name of SERVER_LIMIT_NAMES) limit.set({ name }, limits[name]);
    this.#refusals = new Counter({
      name: "brigade_refusals_total",
      help: "Requests answered with a BAP/1 error, by error code.",
      labelNames: ["code"],
      registers,
    });
    this.#storeLatency = new Histogram({
      name: "brigade_store_transaction_seconds",
      help: "Time from submitting a store transaction to its durable answer (group commit and WAL sync included).",
      buckets: [...STORE_LATENCY_BUCKETS],
      registers,
    });
    for (const via of ["receive", "watch"]) this.#delivered.inc({ via }, 0);
    collectDefaultMetrics({ register: this.registry });
  }

  /** One message send stored. */
  sent(): void {
    this.#sent.inc();
  }

  /** `count` messages handed to a reader by `via`. */
  delivered(via: DeliveryPath, count = 1): void {
    if (count > 0) this.#delivered.inc({ via }, count);
  }

  /** `count` messages newly acknowledged. */
  acked(count: number): void {
    if (count > 0) this.#acked.inc(count);
  }

  /** One request refused with `code`; anything that is not a BAP/1 error code is `internal`. */
  refused(code: string): void {
    const known = (ERROR_CODES as readonly string[]).includes(code);
    this.#refusals.inc({ code: known ? (code as ErrorCode) : "internal" });
  }

  /**
   * `store` with every `transact`, `sendMessage`, `fetchMessages` and `ackMessages` call timed
   * into `brigade_store_transaction_seconds`; its optional members (the one-call send, fetch and
   * ack, the watch feed) stay as they are, so timing never changes which path the service takes.
   */
  timed(store: Store): Store {
    const histogram = this.#storeLatency;
    const timedCall = <T>(call: () => Promise<T>): Promise<T> => {
      const end = histogram.startTimer();
      return call().finally(() => end());
    };
    const sendMessage = store.sendMessage?.bind(store);
    const fetchMessages = store.fetchMessages?.bind(store);
    const ackMessages = store.ackMessages?.bind(store);
    return {
      transact: (unit) => timedCall(() => store.transact(unit)),
      ...(sendMessage === undefined
        ? {}
        : { sendMessage: (command) => timedCall(() => sendMessage(command)) }),
      ...(fetchMessages === undefined
        ? {}
        : { fetchMessages: (command) => timedCall(() => fetchMessages(command)) }),
      ...(ackMessages === undefined
        ? {}
        : { ackMessages: (command) => timedCall(() => ackMessages(command)) }),
      ...(store.watchFeed === undefined ? {} : { watchFeed: store.watchFeed }),
      close: () => store.close(),
    };
  }

  /** The Prometheus text exposition of every metric, and its content type. */
  async render(): Promise<{ readonly body: string; readonly contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
