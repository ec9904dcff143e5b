import type { PermissionModeClass } from "./permission-mode.ts";

/** The attributes of a Claude Code wire frame (`message.content` of a socket user frame). */
export interface CcPeerFrameFields {
  /** The sender address (optional on the wire, as in Claude Code). */
  from?: string;
  /** The sender's session id (`^[A-Za-z0-9_-]{1,80}$`). */
  fromSession?: string;
  /** Forwarding chain of 24-lower-hex hop tokens; more than 32 ⇒ the oldest are dropped. */
  hopChain?: string[];
  /** The sender's display name, raw; canonicalised at encode. */
  fromName?: string;
  /** The sender's self-attested permission-mode class. */
  fromMode?: PermissionModeClass;
  /** The plugin a receiver attributes the message to; outbound senders never set it. */
  fromPlugin?: string;
}
