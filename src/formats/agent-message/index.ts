export { compose } from "./compose.ts";
export { MODE_INJECTED, MODE_SELF_DECLARED, PREFIX, SUFFIX } from "./constants.ts";
export {
  AGENT_MESSAGE_ERROR_CODES,
  AgentMessageError,
  type AgentMessageErrorCode,
} from "./errors.ts";
export type { Origin } from "./origin.ts";
export { type ParseResult, parse } from "./parse.ts";
