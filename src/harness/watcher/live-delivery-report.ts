import type { LiveDelivery } from "../../protocol/index.ts";

/**
 * What this harness says of its session's live delivery (docs/20-protocol.md, "Live delivery"),
 * the one home of the rule for SessionStart's registration and the watcher's heartbeats:
 * - no inbox socket (`socketPath` empty): `no` / `no_inbox_socket`, since nothing can post into
 *   an idle conversation and a message waits for the next prompt or tool call;
 * - `gateClosed`: Claude Code's gate holds every post for a lasting reason: `no` /
 *   `inbound_gate` (the callers leave out a settling setting, which opens within seconds);
 * - else `yes`.
 * SessionStart passes what the launch shows (`hookStandsAside`); the watcher, the gate it reads
 * every tick (`gateClosedLastingly`).
 *
 * @example
 * harnessLiveDelivery(""); // { live_delivery: "no", live_delivery_reason: "no_inbox_socket" }
 * harnessLiveDelivery("/run/cc.sock", true); // … "inbound_gate"
 */
export function harnessLiveDelivery(socketPath: string, gateClosed = false): LiveDelivery {
  if (socketPath === "") return { live_delivery: "no", live_delivery_reason: "no_inbox_socket" };
  if (gateClosed) {
    return { live_delivery: "no", live_delivery_reason: "inbound_gate" };
  }
  return { live_delivery: "yes" };
}
