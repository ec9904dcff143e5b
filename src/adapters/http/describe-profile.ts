import {
  ATTACHMENT_LIMITS,
  type DescribeResult,
  PROTOCOL_LIMITS,
  PROTOCOL_VERSION,
  type ProfileSummary,
} from "../../protocol/index.ts";
import {
  HTTP_ADAPTER_CAPABILITIES,
  HTTP_ADAPTER_LEASE,
  HTTP_ADAPTER_NAME,
  HTTP_ADAPTER_RETENTION,
  HTTP_ADAPTER_VERSION,
} from "./http-adapter-constants.ts";
import type { ProfileStore } from "./profile-store.ts";

/**
 * `profile` of `describe` (docs/spec/protocol.md §4.2), from local files only, never failing,
 * creating nothing: `unconfigured` without a (readable, valid) profile file, `unauthenticated`
 * without a usable credential, `not_member` without a bound team, else `joined` with the team
 * members.
 *
 * @example
 * summarizeProfile(undefined, "default"); // { name: "default", state: "unconfigured" }
 */
export function summarizeProfile(store: ProfileStore | undefined, name: string): ProfileSummary {
  if (store === undefined) return { name, state: "unconfigured" };
  const profile = store.readProfile();
  if (profile.kind !== "ok") return { name, state: "unconfigured" };
  if (store.readCredential().kind !== "ok") return { name, state: "unauthenticated" };
  const p = profile.value;
  if (p.team_ref === undefined || p.team_name === undefined || p.principal_ref === undefined) {
    return { name, state: "not_member" };
  }
  const joined: ProfileSummary = {
    name,
    state: "joined",
    team_ref: p.team_ref,
    team_name: p.team_name,
    principal_ref: p.principal_ref,
  };
  if (p.human_label !== undefined) joined.human_label = p.human_label;
  return joined;
}

/**
 * The http adapter's whole `describe` result (docs/spec/protocol.md §4.2): constants plus
 * {@link summarizeProfile}.
 *
 * @example
 * describeHttpAdapter(undefined, "default").limits.max_body_bytes === 16384;
 */
export function describeHttpAdapter(store: ProfileStore | undefined, name: string): DescribeResult {
  return {
    protocol_version: PROTOCOL_VERSION,
    adapter: { name: HTTP_ADAPTER_NAME, version: HTTP_ADAPTER_VERSION },
    delivery: { guarantee: "at_least_once", ordering: "none", ack_state: "injected" },
    capabilities: [...HTTP_ADAPTER_CAPABILITIES],
    limits: {
      ...PROTOCOL_LIMITS,
      send_rate: { ...PROTOCOL_LIMITS.send_rate },
      principal_send_rate: { ...PROTOCOL_LIMITS.principal_send_rate },
    },
    lease: { ...HTTP_ADAPTER_LEASE },
    retention: { ...HTTP_ADAPTER_RETENTION },
    profile: summarizeProfile(store, name),
    attachments: { ...ATTACHMENT_LIMITS },
  };
}
