import type { LiveDelivery } from "../../protocol/index.ts";
import type { InboundGateState } from "../claude-code/index.ts";

/**
 * What this harness says of its session's live delivery (docs/20-protocol.md, "Live delivery"),
 * the one home of the rule for SessionStart's registration and the watcher's heartbeats:
 * - no inbox socket (`socketPath` empty): `no` / `no_inbox_socket`, since nothing can post into
 *   an idle conversation and a message waits for the next prompt or tool call;
 * - `gate` given and closed for a lasting reason: `no` / `inbound_gate`; a settling setting
 *   (`settings_settling`) opens by itself within seconds, so it does not count;
 * - else `yes`.
 * SessionStart passes no gate: the watcher it starts delivers, and its heartbeats say otherwise
 * once they know the gate holds every post.
 *
 * @example
 * harnessLiveDelivery(""); // { live_delivery: "no", live_delivery_reason: "no_inbox_socket" }
 * harnessLiveDelivery("/run/cc.sock", { open: false, reason: "bypass" }); // … "inbound_gate"
 */
export function harnessLiveDelivery(socketPath: string, gate?: InboundGateState): LiveDelivery {
  if (socketPath === "") return { live_delivery: "no", live_delivery_reason: "no_inbox_socket" };
  if (gate !== undefined && !gate.open && gate.reason !== "settings_settling") {
    return { live_delivery: "no", live_delivery_reason: "inbound_gate" };
  }
  return { live_delivery: "yes" };
}
