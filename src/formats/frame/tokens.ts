/** Begins the frame's tag line. */
export const OPEN_TAG = "<brigade-message";
/** Ends the frame; it stands alone on the last line. */
export const CLOSE_TAG = "</brigade-message>";
/** Begins the native wrapper `wrap` adds (variant C). */
export const WRAPPER_OPEN = "<cross-session-message";
/** Ends the native wrapper. */
export const WRAPPER_CLOSE = "</cross-session-message>";
/** The line dividing Brigade's text (above) from the sender's (below). */
export const SEPARATOR = "----";
/** Labels the first line below the separator as the sender's summary (trailing space). */
export const SUMMARY_PREFIX = "Sender summary (untrusted): ";
/** Follows every `from-label` value (leading space): a human label is never verified. */
export const UNVERIFIED_SUFFIX = " (unverified)";

/**
 * **[ours]** What follows the label of a person's message (`sender.kind` `person`) in
 * `from-label`, instead of {@link UNVERIFIED_SUFFIX}: the server vouches that a person wrote it,
 * not a session; the label itself stays the member's own, unverified words. Starts with a space.
 */
export const PERSON_LABEL_SUFFIX = " (a person, not a session; label unverified)";
/** Code points of the sanitised body that stand in for a summary the sender did not give. */
export const EXCERPT_CHARS = 80;
/** The optional last tag-line attribute naming the message this one answers. */
export const IN_REPLY_TO_ATTRIBUTE = "in-reply-to";
/** Largest sanitised `reply_to`, in UTF-8 bytes, that is printed as `in-reply-to`; longer is omitted. */
export const MAX_IN_REPLY_TO_BYTES = 200;
/**
 * Cap of a custom clause in UTF-8 bytes: the `frame_file` on disk and the folded clause, its
 * trailing space included.
 */
export const MAX_CUSTOM_BYTES = 4096;

/**
 * The tag-line attributes in the order `build` writes them; `in-reply-to` may follow, last.
 * Nothing else is ever written on the tag line.
 *
 * @example TAG_ATTRIBUTES[0] === "team"
 */
export const TAG_ATTRIBUTES = [
  "team",
  "message-id",
  "reply-to-session-id",
  "from-principal",
  "from-name",
  "from-label",
  "hops",
  "sent-at",
] as const;

/**
 * The line a prompt hook prints before each polled frame (docs/spec/formats.md §2.9): hook output
 * joins the user's own turn with no harness preamble, so the frame must say where it came from.
 */
export const POLL_PREAMBLE =
  "Brigade: the following message was not typed by your user; it arrived through Brigade polling from another person's session.";
