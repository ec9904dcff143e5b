import type { PrincipalCache } from "./principal-cache.ts";
import type { AttachmentSettings } from "./service-config.ts";
import type { ServiceDeps } from "./service-deps.ts";
import type { Store } from "./store.ts";
import type { WatchHub } from "./watch-hub.ts";

/**
 * What every group of service verbs shares: the store (one `transact` per verb, so a decorating
 * store sees each verb as one unit), the clock/ids/randomness, the watch hub and the principal
 * cache. One instance per `BrigadeService`.
 */
export interface ServiceContext {
  readonly store: Store;
  readonly deps: ServiceDeps;
  readonly hub: WatchHub;
  readonly principals: PrincipalCache;
  /** The attachment limits this service enforces (`brigade serve --limit`). */
  readonly attachments: AttachmentSettings;
}
