import { member, nullableEnum, requiredEnum, type WireObject } from "../validation/field-rules.ts";

/**
 * Why a session cannot receive live (Brigade extension `session.live_delivery`,
 * docs/20-protocol.md "Live delivery"): a fixed code, never free text, so a sender's display can
 * say it plainly and a hostile harness cannot put words in it.
 * - `no_inbox_socket`: the host offers no way to post into an idle conversation (no messaging
 *   socket, or a host version that has none); messages wait for the session's next prompt or tool
 *   call.
 * - `inbound_gate`: the host would hold every post for a person (its inbound setting or
 *   permission mode), so the harness does not post; messages wait for the session's next prompt
 *   or tool call, or for the person to change that setting.
 * - `watcher_stopped`: the harness's delivery process stopped while the session goes on (it was
 *   refused, or could not be started); messages wait until it runs again.
 * - `watcher_silent`: said by the server, not the harness: the session's last `yes` is older
 *   than {@link liveReportMaxAgeMs}, so whatever delivered has stopped reporting.
 * - `pull_lane`: the session's client has no door Brigade can post through (or none for this
 *   session): its model reads messages with the `inbox` tool at its turns.
 * - `person_review`: a push lane posts into the session, but the client holds each message for
 *   its person's review (no consent token was given): the sender sees `held` until the person acts.
 *
 * @example
 * NOT_LIVE_REASONS.includes("inbound_gate") === true;
 */
export const NOT_LIVE_REASONS = [
  "no_inbox_socket",
  "inbound_gate",
  "watcher_stopped",
  "watcher_silent",
  "pull_lane",
  "person_review",
] as const;

/** A reason code of {@link NOT_LIVE_REASONS}. */
export type NotLiveReason = (typeof NOT_LIVE_REASONS)[number];

/** `live_delivery` values: `yes` when a message can reach the conversation while it is idle. */
export const LIVE_DELIVERY_VALUES = ["yes", "no"] as const;

/**
 * What a harness says of its session's live delivery: `{ live_delivery: "yes" }`, or `"no"` with
 * the reason code. Carried by `session register` and `session heartbeat` (both optional) and
 * reported in `SessionRecord` once a harness said it.
 *
 * @example
 * const notLive: LiveDelivery = { live_delivery: "no", live_delivery_reason: "no_inbox_socket" };
 */
export type LiveDelivery =
  | { live_delivery: "yes" }
  | { live_delivery: "no"; live_delivery_reason: NotLiveReason };

/**
 * Reads `live_delivery` (and, when `"no"`, the required `live_delivery_reason`) from `o`; absent
 * or `null` → `undefined` (unchanged / not said). A reason beside `"yes"` is dropped. Throws the
 * validators' value-free `invalid_input` (`invalid_value` naming the member, `required` for a
 * missing reason).
 */
export function readLiveDelivery(o: WireObject, prefix: string): LiveDelivery | undefined {
  const value = nullableEnum(o, "live_delivery", prefix, LIVE_DELIVERY_VALUES);
  if (value === undefined || value === null) return undefined;
  if (value === "yes") return { live_delivery: "yes" };
  return {
    live_delivery: "no",
    live_delivery_reason: requiredEnum(o, "live_delivery_reason", prefix, NOT_LIVE_REASONS),
  };
}

/**
 * Reads the live delivery a `SessionRecord` reports, never failing: a value this code does not
 * know (a newer adapter's reason, a wrong type) reads as not said, so one odd record can neither
 * break a whole listing nor be shown as something it is not.
 */
export function readReportedLiveDelivery(o: WireObject): LiveDelivery | undefined {
  const value = member(o, "live_delivery");
  if (value === "yes") return { live_delivery: "yes" };
  const given = member(o, "live_delivery_reason");
  const reason = NOT_LIVE_REASONS.find((r) => r === given);
  if (value !== "no" || reason === undefined) return undefined;
  return { live_delivery: "no", live_delivery_reason: reason };
}

/**
 * How long a `yes` holds without being said again, ms, for a session whose lease is
 * `leaseSeconds`: five sixths of the lease. The harness heartbeats at a third of its lease
 * (docs/spec/protocol.md: every 30 s against the default 90 s), so this is two and a half
 * heartbeat intervals — 75 s at the default lease: one lost heartbeat and its retries stay inside
 * it, two in a row do not, and the mark shows before the lease itself runs out.
 *
 * @example
 * liveReportMaxAgeMs(90) === 75_000;
 */
export function liveReportMaxAgeMs(leaseSeconds: number): number {
  return (leaseSeconds * 5_000) / 6;
}

/**
 * The wire members of a stored live-delivery value; `undefined` for `null` or a value this code
 * does not know (never reported rather than misreported). A stored `yes` whose report is older
 * than `maxAgeMs` (`ageMs` = now minus the time of the last request that said it; `null` when
 * unknown) reads as `no` with `watcher_silent`: a delivery process that stopped reporting is not
 * vouched for any more.
 *
 * @example
 * liveDeliveryOf("inbound_gate"); // { live_delivery: "no", live_delivery_reason: "inbound_gate" }
 * liveDeliveryOf("yes", { ageMs: 80_000, maxAgeMs: 75_000 }); // … "watcher_silent"
 */
export function liveDeliveryOf(
  stored: string | null,
  age?: { readonly ageMs: number | null; readonly maxAgeMs: number },
): LiveDelivery | undefined {
  if (stored === "yes") {
    const silent = age !== undefined && (age.ageMs === null || age.ageMs > age.maxAgeMs);
    return silent
      ? { live_delivery: "no", live_delivery_reason: "watcher_silent" }
      : { live_delivery: "yes" };
  }
  const reason = NOT_LIVE_REASONS.find((r) => r === stored);
  return reason === undefined ? undefined : { live_delivery: "no", live_delivery_reason: reason };
}
