import {
  type Capability,
  DEFAULT_LEASE,
  type LeaseRange,
  RETENTION_FLOORS,
  type RetentionPolicy,
} from "../../protocol/index.ts";

/** `DescribeResult.adapter.name` of the http adapter. */
export const HTTP_ADAPTER_NAME = "brigade-adapter-http";

/** `DescribeResult.adapter.version` of the http adapter (display text). */
export const HTTP_ADAPTER_VERSION = "0.1.0";

/**
 * What `brigade serve` supports, advertised in `describe` (docs/spec/protocol.md §8). The adapter
 * cannot import `src/service` (layering), so `test/http-adapter.test.ts` checks this list against
 * the service's capabilities plus the transport ones the adapter adds (`message.watch.*`).
 *
 * @example
 * HTTP_ADAPTER_CAPABILITIES.includes("message.receive") === true;
 */
export const HTTP_ADAPTER_CAPABILITIES: readonly Capability[] = Object.freeze([
  "team.create",
  "team.join",
  "team.roster",
  "team.admin",
  "message.receive",
  "message.watch.push",
  "message.watch.stdin_commands",
  "session.description",
  "session.resume",
  "session.workspace_label",
  "session.inbound",
  "session.model",
  "session.context_used_tokens",
  "session.human_label",
  "session.brigade_version",
  "session.sync_peer",
  "session.live_delivery",
  "message.state",
  "message.adopt",
  "profile.rotate_token",
  "team.invitations",
  "team.labels",
  "message.attachments",
  "message.person",
] as const);

/**
 * The lease range the server grants, in seconds (default 90, min 30, max 600). Duplicated from
 * the service (the layering forbids the import); a cross-layer test keeps them equal.
 */
export const HTTP_ADAPTER_LEASE: Readonly<LeaseRange> = Object.freeze({ ...DEFAULT_LEASE });

/**
 * The server's retention in seconds: exactly the floors of docs/spec/protocol.md §6.9. Duplicated
 * from the service; a cross-layer test keeps them equal.
 */
export const HTTP_ADAPTER_RETENTION: Readonly<RetentionPolicy> = Object.freeze({
  ...RETENTION_FLOORS,
});

/**
 * Per-call HTTP budget in ms: below the harness's 20 s request budget (docs/spec/protocol.md §1.6).
 */
export const HTTP_CALL_TIMEOUT_MS = 15_000;

/** The watch treats a stream silent this long (3 missed keep-alives) as dropped, in ms. */
export const WATCH_IDLE_TIMEOUT_MS = 45_000;

/** Reconnect backoff of the watch stream, in ms: first delay and cap (doubling in between). */
export const WATCH_BACKOFF_MS: { readonly first: 250; readonly max: 5000 } = Object.freeze({
  first: 250,
  max: 5000,
} as const);
