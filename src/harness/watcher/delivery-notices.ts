/**
 * The watcher's fixed sentences about delivery (docs/41-watcher.md "Acked means in the
 * conversation", "The gate rule"): written to the notice file, printed once by the next prompt
 * hook. Brigade's own words only; never an id, a name or a path.
 */

/** A post Claude Code holds for its dialog: not acked, nothing more is posted meanwhile. */
export const HELD_BY_DIALOG_NOTICE =
  "Brigade: Claude Code is holding a teammate's message for your review (its dialog); it is not acknowledged until you deliver it, and further teammate messages wait on the server meanwhile.";

/** Posts that never showed up in the conversation after every attempt. */
export const UNCONFIRMED_NOTICE =
  "Brigade: a teammate's message did not reach this conversation after 3 tries; it stays on the server, unacknowledged, and will be offered again later.";

/** The gate would hold every post: nothing is posted until the setting or the mode allows it. */
export const GATE_CLOSED_NOTICE =
  'Brigade: teammates\' messages wait on the server: this session bypasses permission prompts, where Claude Code holds each one for a dialog unless your user settings.json says "crossSessionInbound": "accept" (the plugin option claude_inbound_setting writes it).';
