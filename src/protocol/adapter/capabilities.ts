/**
 * Every capability string BAP/1 defines (docs/spec/protocol.md §8), in registry order. A
 * `DescribeResult` may list others: consumers ignore unknown strings. `message.receive` is required
 * in v1.
 *
 * @example
 * if (describe.capabilities.includes("message.watch.push")) mode = "push";
 */
export const CAPABILITIES = [
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
  "delivery.processed",
] as const;

/**
 * Brigade's own extensions to the registry (docs/20-protocol.md, "Message states", "Live
 * delivery" and "Team lifecycle"), optional like every capability: `message.state` unlocks
 * `message state`, `message sent` and `message report`; `message.adopt` unlocks `message adopt`;
 * `session.live_delivery` stores and reports the `live_delivery` / `live_delivery_reason` session
 * members; `profile.rotate_token` unlocks `profile rotate-token`; `team.invitations` unlocks
 * `team invite`, `team invitations` and `team revoke-invite` and lets `team join` take an
 * invitation; `team.labels` unlocks `team label` and the `creator_principal_ref` of
 * `team members` (docs/20-protocol.md, "Invitations" and "Labels"); `message.attachments` unlocks
 * `message upload`, `message download` and the `attachments` of a send and an envelope
 * (docs/20-protocol.md, "Attachments"); `message.person` unlocks `message person-send` and
 * `message person-sent` and the `sender.kind` of an envelope (docs/20-protocol.md, "A person's
 * messages"). An adapter
 * without them stays conformant, and a consumer that does not know them ignores them
 * (docs/spec/protocol.md §8).
 */
export const EXTENSION_CAPABILITIES = [
  "message.state",
  "message.adopt",
  "session.live_delivery",
  "profile.rotate_token",
  "team.invitations",
  "team.labels",
  "message.attachments",
  "message.person",
] as const;

/** A capability string BAP/1 defines (docs/spec/protocol.md §8) or one of Brigade's extensions. */
export type Capability = (typeof CAPABILITIES)[number] | (typeof EXTENSION_CAPABILITIES)[number];

/** The one capability every v1 adapter MUST advertise (docs/spec/protocol.md §4.2). */
export const REQUIRED_CAPABILITY: Capability = "message.receive";

/**
 * True when `value` is a capability BAP/1 defines or one of Brigade's extensions.
 *
 * @example
 * isCapability("team.join") === true; isCapability("team.fly") === false;
 */
export function isCapability(value: string): value is Capability {
  return (
    (CAPABILITIES as readonly string[]).includes(value) ||
    (EXTENSION_CAPABILITIES as readonly string[]).includes(value)
  );
}

/**
 * True when the advertised `capabilities` contain `capability` (exact, case-sensitive match).
 *
 * @example
 * hasCapability(describe.capabilities, "session.resume");
 */
export function hasCapability(capabilities: readonly string[], capability: Capability): boolean {
  return capabilities.includes(capability);
}
