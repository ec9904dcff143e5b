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

/**
 * The gate would hold every post (a session that bypasses permission prompts, user settings that
 * do not accept): the watcher stands aside and the hooks deliver. Also SessionStart's line when
 * the launch already shows it.
 */
export const GATE_CLOSED_NOTICE =
  "Brigade: this session bypasses permission prompts, where Claude Code would hold each teammate's message for a dialog, so Brigade delivers them at each prompt and between tool calls instead of live. To receive them live, the user can run `brigade doctor --fix` in their own terminal (it asks first: the Claude Code setting it changes applies to every sender, not only Brigade).";
