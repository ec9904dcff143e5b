import type { NotLiveReason, SessionRecord } from "../../protocol/index.ts";

/**
 * What each not-live reason means for a sender, as the session CLI says it (docs/43-session-cli.md,
 * "Sessions that cannot receive live"). Fixed text keyed by the wire's reason code: nothing a teammate's machine wrote
 * is printed.
 */
export const NOT_LIVE_SENTENCES: Readonly<Record<NotLiveReason, string>> = {
  no_inbox_socket:
    "its Claude Code offers no inbox socket, so a message reaches it only at its next prompt or tool call",
  inbound_gate:
    "its Claude Code would hold every incoming post for its user, so a message reaches it only at its next prompt or tool call",
  watcher_stopped:
    "its message watcher stopped or could not start, so a message reaches it only at its next prompt or tool call",
  watcher_silent:
    "its message watcher stopped reporting to the team server, so a message may reach it only at its next prompt or tool call",
  pull_lane:
    "its client has no door Brigade can post through, so its model reads a message with the inbox tool at its next turn",
  person_review:
    "its client holds each incoming message for its user's review (no consent token was given), so a message reaches the model once its user lets it through",
};

/** The reason a session record reports for not receiving live, or `undefined` when it did not. */
export function notLiveReason(record: SessionRecord | undefined): NotLiveReason | undefined {
  if (record?.live_delivery !== "no") return undefined;
  return record.live_delivery_reason;
}

/**
 * How messages reach a session (docs/49-hosts.md, "Which lane"), read from what its harness told
 * the server, so every teammate's machine reads the same: `push` (a delivery process puts each
 * message into the conversation by itself: `live_delivery` `yes`), `held` (a push lane posts, but
 * the client holds each message for its person's review: `person_review`), `pull` (the model
 * reads messages at its turns: any other not-live reason), or `""` when the harness never said.
 *
 * @example sessionLane({ ...record, live_delivery: "no", live_delivery_reason: "pull_lane" }) === "pull"
 */
export function sessionLane(record: SessionRecord): "push" | "pull" | "held" | "" {
  if (record.live_delivery === "yes") return "push";
  const reason = notLiveReason(record);
  if (reason === undefined) return "";
  return reason === "person_review" ? "held" : "pull";
}

/**
 * The `brigade sessions` mark of a session that reported it cannot receive live:
 * `not live: <reason code>`; `undefined` otherwise (said live, or never said).
 *
 * @example notLiveMark(record) === "not live: no_inbox_socket"
 */
export function notLiveMark(record: SessionRecord): string | undefined {
  const reason = notLiveReason(record);
  return reason === undefined ? undefined : `not live: ${reason}`;
}

/**
 * The one line `brigade send` prints for a recipient that reported it cannot receive live: the
 * message was still sent and waits on the server. `undefined` when the recipient did not say so.
 *
 * @example notLiveLine(record) // "The recipient cannot receive live (inbound_gate): …"
 */
export function notLiveLine(record: SessionRecord | undefined): string | undefined {
  const reason = notLiveReason(record);
  if (reason === undefined) return undefined;
  return `The recipient cannot receive live (${reason}): ${NOT_LIVE_SENTENCES[reason]}; the message waits on the server until then.`;
}
