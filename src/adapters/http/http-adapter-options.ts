import { type AdapterLogger, silentLogger } from "../adapter-logger.ts";
import {
  type HttpAdapterEnv,
  isValidProfileName,
  locateConfigDir,
  resolveProfileName,
} from "./config-location.ts";
import {
  HTTP_CALL_TIMEOUT_MS,
  WATCH_BACKOFF_MS,
  WATCH_IDLE_TIMEOUT_MS,
} from "./http-adapter-constants.ts";
import { ProfileStore } from "./profile-store.ts";

/** Options of `HttpAdapter`. */
export interface HttpAdapterOptions {
  /**
   * Environment (docs/spec/protocol.md §1.5): config dir, profile, and `BRIGADE_SERVER` for
   * first-time setup.
   */
  readonly env: HttpAdapterEnv;
  /** `--profile`; else `BRIGADE_PROFILE`, else `default`. */
  readonly profile?: string | undefined;
  /** `fetch` to use; defaults to Node's global. */
  readonly fetch?: typeof fetch;
  /** Per-call HTTP budget in ms (default 15 000). */
  readonly timeoutMs?: number;
  /** Diagnostics sink (default: silent). */
  readonly logger?: AdapterLogger;
  /** Watch tuning (tests shorten them): silent-stream timeout and reconnect backoff, in ms. */
  readonly watch?: {
    readonly idleTimeoutMs?: number;
    readonly backoff?: { readonly first: number; readonly max: number };
  };
}

/**
 * {@link HttpAdapterOptions} with every default applied: what the adapter's helpers share for the
 * adapter's whole life.
 */
export interface HttpAdapterRuntime {
  /** The profile the adapter is bound to (possibly an invalid name, then `store` is absent). */
  readonly profileName: string;
  readonly env: HttpAdapterEnv;
  /** The profile's files; `undefined` when there is no config folder or the name is invalid. */
  readonly store: ProfileStore | undefined;
  readonly fetch: typeof fetch;
  /** Per-call HTTP budget in ms. */
  readonly timeoutMs: number;
  readonly log: AdapterLogger;
  /** Silent-stream timeout of `message watch`, in ms. */
  readonly watchIdleMs: number;
  /** Reconnect backoff of `message watch`, in ms. */
  readonly watchBackoff: { readonly first: number; readonly max: number };
}

/** Applies the defaults to {@link HttpAdapterOptions}; reads no file and never throws. */
export function resolveHttpAdapterRuntime(options: HttpAdapterOptions): HttpAdapterRuntime {
  const profileName = resolveProfileName(options.profile, options.env);
  // docs/spec/protocol.md §1.5: the variable counts wherever the adapter runs, and a relative
  // one configures nothing rather than some other folder.
  const config = locateConfigDir(options.env, { variable: "read", relative: "refuse" });
  return {
    profileName,
    env: options.env,
    store:
      config.ok && isValidProfileName(profileName)
        ? new ProfileStore(config.dir, profileName)
        : undefined,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? HTTP_CALL_TIMEOUT_MS,
    log: options.logger ?? silentLogger(),
    watchIdleMs: options.watch?.idleTimeoutMs ?? WATCH_IDLE_TIMEOUT_MS,
    watchBackoff: options.watch?.backoff ?? WATCH_BACKOFF_MS,
  };
}
