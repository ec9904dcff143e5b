import type { PermissionModeClass } from "./permission-mode.ts";

/** The attributes of a model-face envelope (`<cross-session-message …>` as our model reads it). */
export interface CrossSessionEnvelopeFields {
  /** The sender's address in its canonical (percent-encoded) spelling; what a reply targets. Required. */
  from: string;
  /** The sender's session id (`^[A-Za-z0-9_-]{1,80}$`). Self-claimed. */
  fromSession?: string;
  /** The sender's display name, raw; canonicalised at build (see `canonicalPeerDisplayName`). */
  fromName?: string;
  /** The sender's self-attested permission-mode class; absent = no class asserted. */
  fromMode?: PermissionModeClass;
  /** The sender's raw scope on the cross-principal lane; percent-encoded on the attribute. */
  fromScope?: string;
}
