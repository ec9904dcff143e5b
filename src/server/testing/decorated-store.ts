import type { Store, StoreTx } from "../../service/index.ts";

/** Turns one unit of work's {@link StoreTx} into a (deliberately broken) variant of it. */
export type TxDecorator = (tx: StoreTx) => StoreTx;

/**
 * A view of `tx` in which the members of `overrides` replace the real ones; every other method
 * is the real one, bound to `tx` (the SQLite transaction keeps its private state).
 *
 * @example
 * const readOnlyAcks = overrideTx(tx, { ackMessage: async () => true });
 */
export function overrideTx(tx: StoreTx, overrides: Partial<StoreTx>): StoreTx {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return Reflect.get(overrides, property, receiver);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A {@link Store} that hands every unit of work a decorated transaction: `always` applies to all
 * units; {@link DecoratedStore.withNextTransaction} adds a decorator for the one unit a single
 * service call opens. Test-only (the conformance positive controls); `close` closes the inner store.
 *
 * @example
 * const store = new DecoratedStore(openSqliteStore(":memory:"), (tx) => overrideTx(tx, {}));
 */
export class DecoratedStore implements Store {
  readonly #inner: Store;
  readonly #always: TxDecorator | undefined;
  #armed: TxDecorator | undefined;

  constructor(inner: Store, always?: TxDecorator) {
    this.#inner = inner;
    this.#always = always;
  }

  /** Runs `unit` in the inner store with the decorated transaction. */
  transact<T>(unit: (tx: StoreTx) => Promise<T>): Promise<T> {
    const once = this.#armed;
    this.#armed = undefined;
    const always = this.#always;
    return this.#inner.transact((tx) => {
      let view = always === undefined ? tx : always(tx);
      if (once !== undefined) view = once(view);
      return unit(view);
    });
  }

  /** Closes the inner store. */
  close(): Promise<void> {
    return this.#inner.close();
  }

  /**
   * Calls `call()` and gives `decorator` to the first unit of work that `call` opens
   * **synchronously** (before its first `await`), and to no other. BrigadeService's methods open
   * their one transaction synchronously, so `withNextTransaction(d, () => service.listSessions(…))`
   * decorates exactly that call's unit, even with other requests in flight (JavaScript runs the
   * synchronous part of a call without interleaving). If `call` opens none synchronously, nothing
   * is decorated.
   *
   * @example store.withNextTransaction(bypass, () => super.registerSession(p, t, r));
   */
  withNextTransaction<T>(decorator: TxDecorator, call: () => T): T {
    this.#armed = decorator;
    try {
      return call();
    } finally {
      this.#armed = undefined;
    }
  }
}
