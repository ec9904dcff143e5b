/**
 * The injection pacer: keeps the watcher's socket posts inside Claude Code's receiver limits
 * (docs/spec/claude-code.md §0 item 4, §3.3).
 */
export {
  InjectionPacer,
  type InjectionPacerOptions,
  PACER_WAIT_CAUSES,
  type PacerDecision,
  type PacerWaitCause,
} from "./injection-pacer.ts";
export { CLAUDE_CODE_SOCKET_LIMITS, PACER_LIMITS, type PacerLimits } from "./pacer-limits.ts";
