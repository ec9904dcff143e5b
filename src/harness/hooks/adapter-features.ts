import { type Adapter, BapError, PROTOCOL_VERSION } from "../../protocol/index.ts";

/**
 * The optional members a hook may send, as the adapter's `describe` advertises them
 * (docs/spec/protocol.md §6.13, §8): features are discovered only from `capabilities`, never
 * assumed.
 *
 * @example const f: AdapterFeatures = { workspaceLabel: true, humanLabel: true, resume: true, inbound: true, liveDelivery: true };
 */
export interface AdapterFeatures {
  /** `session.workspace_label`: registration `workspace_label`. */
  readonly workspaceLabel: boolean;
  /** `session.human_label`: registration `human_label`. */
  readonly humanLabel: boolean;
  /** `session.resume`: registration `resume`. */
  readonly resume: boolean;
  /** `session.inbound`: heartbeat `inbound` (registration always carries it: required). */
  readonly inbound: boolean;
  /** `session.live_delivery`: registration and heartbeat `live_delivery` (docs/20-protocol.md). */
  readonly liveDelivery: boolean;
}

/** Result of {@link describeAdapter}. */
export type DescribeOutcome =
  | { readonly ok: true; readonly features: AdapterFeatures }
  | { readonly ok: false; readonly code: string; readonly retryable: boolean };

/** The major part of a protocol version string (`"1"` of `"1"` or `"1.2"`). */
function major(version: string): string {
  const dot = version.indexOf(".");
  return dot === -1 ? version : version.slice(0, dot);
}

/**
 * Runs the adapter's `describe` (offline: no credential, no network, creates nothing) before a
 * hook registers (docs/spec/claude-code.md §7.3, docs/spec/protocol.md §6.13): a `protocol_version`
 * whose major differs from ours, or a `protocol_mismatch` error, → `{ok: false, code:
 * "protocol_mismatch"}` (not retryable: the user must update the plugin or the adapter); any other
 * failure → its code (`internal` for a non-protocol error). Otherwise the {@link AdapterFeatures}
 * of its `capabilities`. Never throws.
 *
 * @example const d = await describeAdapter(adapter, 8_000); if (d.ok && d.features.resume) …
 */
export async function describeAdapter(adapter: Adapter, ms: number): Promise<DescribeOutcome> {
  try {
    const described = await adapter.describe({ signal: AbortSignal.timeout(ms) });
    if (major(String(described.protocol_version)) !== major(PROTOCOL_VERSION)) {
      return { ok: false, code: "protocol_mismatch", retryable: false };
    }
    const has = new Set(Array.isArray(described.capabilities) ? described.capabilities : []);
    return {
      ok: true,
      features: {
        workspaceLabel: has.has("session.workspace_label"),
        humanLabel: has.has("session.human_label"),
        resume: has.has("session.resume"),
        inbound: has.has("session.inbound"),
        liveDelivery: has.has("session.live_delivery"),
      },
    };
  } catch (error) {
    if (error instanceof BapError)
      return { ok: false, code: error.code, retryable: error.retryable };
    return { ok: false, code: "internal", retryable: false };
  }
}
