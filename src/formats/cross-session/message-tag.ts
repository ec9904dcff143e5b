/**
 * The envelope tag of both faces (model face and CC wire frame), written without angle brackets.
 * Example: `"<" + CROSS_SESSION_MESSAGE_TAG + ">"` is `"<cross-session-message>"`.
 */
export const CROSS_SESSION_MESSAGE_TAG = "cross-session-message";
