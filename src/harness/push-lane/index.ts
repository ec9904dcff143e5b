/**
 * The shared push lane (docs/49-hosts.md, "The push lane"): for one bound host session, the
 * server's message stream through the shared inbound pipeline and pacer into a client's
 * `DeliveryDoor`, with heartbeats, batched acks and the disposition reports; started detached by
 * the client's session-start hook (`ensurePushLane`) and run by `brigade host-watch`. No client
 * is named here: a client gives its door through `HostClient.openDoor`.
 */

export {
  ENSURE_PUSH_LANE_FAILURES,
  type EnsurePushLaneOptions,
  type EnsurePushLaneResult,
  ensurePushLane,
  pushLaneEnvironment,
  startPushLane,
} from "./ensure-push-lane.ts";
export {
  PUSH_LANE_EXIT_REASONS,
  type PushLaneExit,
  type PushLaneExitReason,
} from "./push-lane-exit.ts";
export { PUSH_LANE_CONFIRM_MS, PushLaneLoop, type PushLaneLoopOptions } from "./push-lane-loop.ts";
export { type RunPushLaneOptions, runPushLane } from "./run-push-lane.ts";
