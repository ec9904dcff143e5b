/**
 * The inbound pipeline (docs/spec/claude-code.md §7.5): pure, clock injected, shared by the watcher
 * and the prompt-hook poll.
 */
export { fetchedMessages } from "./fetched-messages.ts";
export { INBOUND_LIMITS } from "./inbound-limits.ts";
export { type InboundMessage, senderDisplayName } from "./inbound-message.ts";
export {
  type DoneResult,
  INBOUND_OUTCOMES,
  type InboundDelivery,
  type InboundItem,
  type InboundOutcome,
  InboundPipeline,
  type InboundPipelineOptions,
  type OfferResult,
} from "./inbound-pipeline.ts";
export type { PendingFile, PendingRecord, PendingStore, SeenStore } from "./inbound-stores.ts";
export {
  INBOUND_REJECTION_REASONS,
  type InboundRejectionReason,
  type LooseValidationResult,
  looseValidate,
} from "./loose-validation.ts";
export { LruSet } from "./lru-set.ts";
export { dropNotice, NOTICE_PREFIX, rateNotice } from "./notices.ts";
export { isSafeId } from "./safe-id.ts";
export type { FetchedMessage } from "./sender-wait-lists.ts";
