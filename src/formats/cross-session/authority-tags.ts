/**
 * The engine authority family `neutralizePeerBody` defuses (40 tags, frozen): Claude Code's 35
 * authority tags, then `cited`, `user_memory`, `skills`, `user-memory-input`, `brigade-message`.
 * `channel` is only defused under the channel rule (an opener with a `source=` attribute). Unrelated
 * to the sanitiser's five-family list; never merge the two.
 * Example: `ENGINE_AUTHORITY_ENVELOPE_TAGS.includes("system-reminder")` is `true`.
 */
export const ENGINE_AUTHORITY_ENVELOPE_TAGS: readonly string[] = Object.freeze([
  "bash-input",
  "bash-stdout",
  "bash-stderr",
  "bash-exit-code",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "command-name",
  "command-message",
  "command-args",
  "task-notification",
  "agent-message",
  "teammate-message",
  "cross-session-message",
  "remote-review",
  "slack-ping",
  "slack-tag-message",
  "tick",
  "fetched-web-content",
  "untrusted-widget-state",
  "coordinator-relay",
  "artifact-type-instructions",
  "cowritten-artifact-html",
  "artifact-file-content",
  "artifact-origin-notes",
  "artifact-stored-declaration",
  "channel",
  "system-reminder",
  "system_reminder",
  "function_results",
  "tool_use_error",
  "sandbox_violations",
  "persisted-output",
  "total_tokens",
  "user-prompt-submit-hook",
  "cited",
  "user_memory",
  "skills",
  "user-memory-input",
  "brigade-message",
]);
