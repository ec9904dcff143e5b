/**
 * The http adapter: the BAP/1 client of `brigade serve` (docs/31-http-adapter.md).
 */
export type {
  ConfigDirLocation,
  ConfigDirRefusal,
  ConfigDirRule,
  ConfigDirSource,
  HttpAdapterEnv,
} from "./config-location.ts";
export {
  DEFAULT_PROFILE_NAME,
  isValidProfileName,
  locateConfigDir,
  resolveProfileName,
} from "./config-location.ts";
export { describeHttpAdapter, summarizeProfile } from "./describe-profile.ts";
export { HttpAdapter } from "./http-adapter.ts";
export {
  HTTP_ADAPTER_CAPABILITIES,
  HTTP_ADAPTER_LEASE,
  HTTP_ADAPTER_NAME,
  HTTP_ADAPTER_RETENTION,
  HTTP_ADAPTER_VERSION,
  HTTP_CALL_TIMEOUT_MS,
  WATCH_BACKOFF_MS,
  WATCH_IDLE_TIMEOUT_MS,
} from "./http-adapter-constants.ts";
export type { HttpAdapterOptions } from "./http-adapter-options.ts";
export type { HttpMethod, ServerRequest, ServerTransport } from "./http-client.ts";
export { callServer, DEFAULT_HTTP_TIMEOUT_MS, segment } from "./http-client.ts";
export type { HttpWatchDeps, WatchTarget } from "./http-watch.ts";
export { HttpWatch } from "./http-watch.ts";
export type {
  ProfileMove,
  ProfileMoveFailure,
  StoredCredential,
  StoredProfile,
  StoredRead,
} from "./profile-store.ts";
export {
  CREDENTIALS_DIR,
  PROFILE_MOVE_FAILURES,
  PROFILES_DIR,
  ProfileStore,
} from "./profile-store.ts";
export { normalizeServerUrl } from "./server-url.ts";
export type { SseEvent } from "./sse-parser.ts";
export { SseParser } from "./sse-parser.ts";
