import type { Adapter, AdapterCommandName } from "../../protocol/index.ts";
import type { AdapterLogger } from "../adapter-logger.ts";

/**
 * What the process binding reads and writes, injected so it runs in process in tests.
 * `stdout` receives only envelopes and watch events; `stderr` only NDJSON diagnostics.
 */
export interface ProcessBindingIo {
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** True when stdin is a terminal: `--prompt` is allowed and documents are refused. */
  readonly stdinIsTerminal?: boolean;
  /** Asks one question on the terminal (prompt text on stderr); `secret` turns echo off. */
  readonly prompt?: (question: string, options: { readonly secret: boolean }) => Promise<string>;
  /** Subscribes to SIGTERM (and SIGINT); returns the unsubscribe function. */
  readonly onTerminate?: (listener: () => void) => () => void;
}

/** An adapter plus its optional local pre-check (docs/spec/protocol.md §6.16 (a)). */
export interface BoundAdapter {
  readonly adapter: Adapter;
  /**
   * Local checks (profile, credential, bound team) run before stdin is read; throws a `BapError`.
   */
  readonly checkLocalReady?: (command: AdapterCommandName) => void;
}

/** What a factory gets to build the adapter for one invocation. */
export interface AdapterFactoryContext {
  /** `--profile`, when given (the adapter applies `BRIGADE_PROFILE` / `default` otherwise). */
  readonly profile: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: AdapterLogger;
}

/** Builds the adapter of one invocation. */
export type AdapterFactory = (context: AdapterFactoryContext) => BoundAdapter;
