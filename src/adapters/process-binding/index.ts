/**
 * The BAP/1 process binding: exposes any in-process `Adapter` as `<group> <verb> [flags]` with
 * one envelope on stdout (NDJSON for `message watch`), docs/spec/protocol.md §1–§5.
 */
export type {
  AdapterFactory,
  AdapterFactoryContext,
  BoundAdapter,
  ProcessBindingIo,
} from "./process-binding-io.ts";
export { readStdinDocument } from "./read-stdin-document.ts";
export type { AdapterProcessIo, RunAsProcessOptions } from "./run-as-process.ts";
export { runAsProcess } from "./run-as-process.ts";
export type { ProcessBindingOptions } from "./run-process-binding.ts";
export { runProcessBinding } from "./run-process-binding.ts";
export { runWatch, WATCH_EOF_DRAIN_MS } from "./run-watch.ts";
