export * from "./qwen-conversation.ts";
export * from "./qwen-delivery.ts";
export * from "./qwen-door.ts";
export * from "./qwen-facts.ts";
export * from "./qwen-frames.ts";
export * from "./qwen-receipts.ts";
export * from "./qwen-registry.ts";
