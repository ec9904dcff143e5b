import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { DecoratedStore, type TxDecorator } from "./decorated-store.ts";

/**
 * A {@link BrigadeService} over a {@link DecoratedStore}, the base of the mutants that break one
 * verb: a subclass overrides that verb and runs the real one through {@link decorateNext}, whose
 * decorator changes only the unit of work that call opens. `always` (optional) decorates every
 * unit. Test-only (the conformance positive controls).
 *
 * @example
 * class M extends UnitDecoratingService {
 *   override leaveTeam(p: string, t: string) { return this.decorateNext(nobodyElseTx, () => super.leaveTeam(p, t)); }
 * }
 */
export class UnitDecoratingService extends BrigadeService {
  readonly #store: DecoratedStore;

  /** Wraps `store` (with `always`, when given); `deps` as for {@link BrigadeService}. */
  constructor(store: Store, deps: ServiceDeps = systemDeps(), always?: TxDecorator) {
    const decorated = new DecoratedStore(store, always);
    super(decorated, deps);
    this.#store = decorated;
  }

  /**
   * Runs `call` with `decorator` on the one unit it opens synchronously
   * ({@link DecoratedStore.withNextTransaction}).
   */
  protected decorateNext<T>(decorator: TxDecorator, call: () => T): T {
    return this.#store.withNextTransaction(decorator, call);
  }
}
