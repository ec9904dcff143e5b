/**
 * Opens the sentinel line: `<!-- lsp:agent-message-v1 ` (one trailing space, 26 characters).
 *
 * @example PREFIX + '{"fromSession":"ses_1","mode":"injected"}' + SUFFIX
 */
export const PREFIX = "<!-- lsp:agent-message-v1 ";

/**
 * Closes the sentinel line: ` -->` (one leading space, 4 characters).
 *
 * @example line.endsWith(SUFFIX)
 */
export const SUFFIX = " -->";

/**
 * Origin mode: the platform's harness stamped the origin from its own session identity.
 *
 * @example compose("hi", { fromSession: "ses_1", mode: MODE_INJECTED })
 */
export const MODE_INJECTED = "injected";

/**
 * Origin mode: the sending model supplied the origin and it was checked by id (degraded fallback).
 *
 * @example compose("hi", { fromSession: "ses_1", mode: MODE_SELF_DECLARED })
 */
export const MODE_SELF_DECLARED = "self-declared";
