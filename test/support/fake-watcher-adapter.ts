import type {
  Adapter,
  HeartbeatRequest,
  MessageEnvelope,
  ReceiveResult,
  SessionRegistration,
  WatchEvent,
  WatchHandle,
} from "../../src/protocol/index.ts";

// Test support for the watcher's tests: a scripted adapter (its polling wait is `until.ts`).

/**
 * A watch handle that yields `events` (after `gate` resolves), then ends — or, with `hold`, stays
 * open until closed. `drained` is called when the reader asks for the event after the last one,
 * that is once it has handled every event.
 *
 * @example fakeWatchHandle([{ event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" }], { hold: true })
 */
export function fakeWatchHandle(
  events: readonly WatchEvent[],
  options: {
    readonly gate?: Promise<void>;
    readonly hold?: boolean;
    readonly drained?: () => void;
  } = {},
): WatchHandle {
  let close: () => void = () => {};
  const closed = new Promise<void>((r) => {
    close = r;
  });
  const stream = (async function* () {
    await options.gate;
    yield* events;
    options.drained?.();
    if (options.hold === true) await closed;
  })();
  return {
    events: stream,
    [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    send: async () => {},
    close: async () => close(),
  };
}

/** What a {@link fakeWatcherAdapter} was asked, in order. */
export interface FakeAdapterCalls {
  /** Message watches opened. */
  opened: number;
  readonly heartbeats: HeartbeatRequest[];
  readonly registrations: SessionRegistration[];
  /** `sessionClose` calls. */
  closes: number;
  /** `messageReceive` calls. */
  receives: number;
}

/** Behaviour of a {@link fakeWatcherAdapter}; every member has a harmless default. */
export interface FakeAdapterOptions {
  /** Handed out in order by `messageWatch`; then handles that stay open. */
  readonly handles?: readonly WatchHandle[];
  /** `describe().capabilities` (default none). */
  readonly capabilities?: readonly string[];
  /** Answers a heartbeat (default: resolves). */
  readonly heartbeat?: (request: HeartbeatRequest) => Promise<unknown>;
  /** Answers `sessionRegister` (default: the same session, resumed). */
  readonly register?: (registration: SessionRegistration) => Promise<unknown>;
  /** Answers `messageReceive` (default: no messages). */
  readonly receive?: () => Promise<ReceiveResult>;
}

/**
 * An in-memory {@link Adapter} with just the verbs the watcher calls, recording each call.
 *
 * @example const { adapter, calls } = fakeWatcherAdapter({ capabilities: ["session.model"] });
 */
export function fakeWatcherAdapter(options: FakeAdapterOptions = {}): {
  adapter: Adapter;
  calls: FakeAdapterCalls;
} {
  const calls: FakeAdapterCalls = {
    opened: 0,
    heartbeats: [],
    registrations: [],
    closes: 0,
    receives: 0,
  };
  const handles = options.handles ?? [];
  const adapter = {
    describe: async () => ({ capabilities: [...(options.capabilities ?? [])] }),
    messageWatch: () => {
      const next = handles[calls.opened] ?? fakeWatchHandle([], { hold: true });
      calls.opened += 1;
      return next;
    },
    sessionHeartbeat: async (_id: string, request: HeartbeatRequest) => {
      calls.heartbeats.push(request);
      return (await options.heartbeat?.(request)) ?? {};
    },
    sessionRegister: async (registration: SessionRegistration) => {
      calls.registrations.push(registration);
      return (await options.register?.(registration)) ?? { session_id: "s-1", resumed: true };
    },
    sessionClose: async () => {
      calls.closes += 1;
      return {};
    },
    messageReceive: async () => {
      calls.receives += 1;
      return (await options.receive?.()) ?? { messages: [] };
    },
    messageAck: async () => ({ acked: [], unknown: [] }),
  } as unknown as Adapter;
  return { adapter, calls };
}

/**
 * Message `m-<n>` to session `s-1` from its own sender session `s-sender-<n>`, so no per-sender
 * rule of the inbound pipeline applies; body `message <n>`.
 *
 * @example senderEnvelope(3).message_id === "m-3"
 */
export function senderEnvelope(n: number): MessageEnvelope {
  return {
    protocol_version: "1",
    kind: "text",
    message_id: `m-${n}`,
    team_ref: "t-1",
    sender: { principal_ref: "p-1", session_id: `s-sender-${n}`, session_name: `sender-${n}` },
    recipient_session_id: "s-1",
    body: `message ${n}`,
    reply_to: null,
    hop_count: 0,
    created_at: "2026-12-02T10:00:00Z",
    delivery_state: "accepted",
  };
}

/**
 * The environment a watcher test hands `runWatcher`: Claude pid `claudePid`, HOME and
 * XDG_STATE_HOME `base`, CLAUDE_CONFIG_DIR `<base>/claude`, the messaging token `token`.
 *
 * @example runWatcher({ claudePid: "4242", env: watcherTestEnv(base, "4242"), … })
 */
export function watcherTestEnv(
  base: string,
  claudePid: string,
  token = "tok",
): Record<string, string> {
  return {
    CLAUDE_PID: claudePid,
    HOME: base,
    XDG_STATE_HOME: base,
    CLAUDE_CONFIG_DIR: `${base}/claude`,
    CLAUDE_CODE_MESSAGING_TOKEN: token,
  };
}
