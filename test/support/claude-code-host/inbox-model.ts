/**
 * Claude Code 2.1.328's handling of an accepted inbox post (docs/spec/claude-code.md §0 item
 * 4, §3.3; docs/spec/cross-session.md §12 "Receiver" step 5), as a small clock-injected state
 * machine with no I/O. The socket server in `inbox-server.ts` feeds it; tests may also drive it
 * directly.
 *
 * Per sender, in the order docs/spec/cross-session.md §12 lists them:
 * 1. `duplicate`: content byte-identical to that sender's previous post less than 30 s ago;
 * 2. `rate_limited`: the sender's token bucket (30, refilling 0.5/s) has no whole token;
 * 3. `queue_full`: a turn is busy and 50 posts are already queued.
 * Otherwise the post is `delivered` (idle: the model reads it now and, with `autoTurn`, a turn
 * starts) or `queued` (busy: the model reads it when the turn ends).
 *
 * Where the facts are silent, the strict reading: every post that reaches admission becomes the
 * sender's "previous post" (a dropped duplicate restarts the 30 s window), and a post dropped as a
 * duplicate or rate-limited takes no token.
 */

/** Claude Code's receiver limits (docs/spec/claude-code.md §0 item 4). */
export const CLAUDE_CODE_RECEIVER_LIMITS: {
  readonly bucketCapacity: number;
  readonly refillPerSecond: number;
  readonly duplicateWindowMs: number;
  readonly busyQueueCap: number;
} = {
  bucketCapacity: 30,
  refillPerSecond: 0.5,
  duplicateWindowMs: 30_000,
  busyQueueCap: 50,
};

/**
 * What admission did with one post. `dropped` and `late` come only from the `recording` option:
 * admitted, then never read (`dropped`) or read only at {@link InboxModel.deliverLate} (`late`).
 */
export type AdmissionOutcome =
  | "delivered"
  | "queued"
  | "duplicate"
  | "rate_limited"
  | "queue_full"
  | "dropped"
  | "late";

/** How an admitted post reaches the model: at once (`record`), never (`drop`), or late (`late`). */
export type PostRecording = "record" | "drop" | "late";

/** The session's turn state, as the registry's `status` shows it. */
export type TurnStatus = "busy" | "idle";

/** One thing the model read, in order. */
export interface ModelRead {
  /** `socket`: a delivered post; `hook`: a SessionStart / UserPromptSubmit hook's stdout. */
  readonly source: "socket" | "hook";
  /** The post's `message.content` verbatim, or the hook's whitespace-trimmed stdout. */
  readonly text: string;
  /** For `hook`: the event whose hook printed it. */
  readonly hookEvent?: string;
  /** For `hook`: stdout was over 10,000 characters and only a preview reached the model. */
  readonly previewed?: boolean;
  /**
   * For `hook`: the text as it reaches the model, label and carrier included
   * (`SessionStart:startup hook success: …`, see `hookContextText`).
   */
  readonly rendered?: string;
  /** For `socket`: the sender key the post was admitted under. */
  readonly sender?: string;
}

interface SenderState {
  tokens: number;
  tokensAt: number;
  last: string | undefined;
  lastAt: number;
}

/** Options of {@link InboxModel}. */
export interface InboxModelOptions {
  /** The clock, ms. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** The initial turn state; defaults to `idle`. */
  readonly status?: TurnStatus;
  /** An idle session starts a turn (turns `busy`) when a post is delivered; defaults to true. */
  readonly autoTurn?: boolean;
  /** Called after every status change (the host rewrites the registry file). */
  readonly onStatus?: (status: TurnStatus) => void;
  /** Called when a post enters Claude Code's queue (the transcript's `enqueue`). */
  readonly onEnqueue?: (content: string) => void;
  /** Called when the model reads a post: while idle, or taken from a busy turn's queue. */
  readonly onRead?: (content: string, how: "idle" | "queued") => void;
  /** Per admitted post: read it as Claude Code does (default), drop it unread, or keep it for later. */
  readonly recording?: () => PostRecording;
}

/** The receiver's admission rules, turn state, busy queue and the model's reading log. */
export class InboxModel {
  /** Everything the model read, in order (socket posts and hook output). */
  readonly reads: ModelRead[] = [];
  readonly #now: () => number;
  readonly #autoTurn: boolean;
  readonly #onStatus: ((status: TurnStatus) => void) | undefined;
  readonly #onEnqueue: ((content: string) => void) | undefined;
  readonly #onRead: ((content: string, how: "idle" | "queued") => void) | undefined;
  readonly #recording: () => PostRecording;
  readonly #late: { readonly sender: string; readonly content: string }[] = [];
  readonly #senders = new Map<string, SenderState>();
  readonly #queue: { readonly sender: string; readonly content: string }[] = [];
  #status: TurnStatus;

  constructor(options: InboxModelOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#status = options.status ?? "idle";
    this.#autoTurn = options.autoTurn ?? true;
    this.#onStatus = options.onStatus;
    this.#onEnqueue = options.onEnqueue;
    this.#onRead = options.onRead;
    this.#recording = options.recording ?? (() => "record");
  }

  /**
   * Reads every post kept by the `late` recording (as a post taken while idle), in order; returns
   * how many.
   */
  deliverLate(): number {
    const taken = this.#late.splice(0);
    for (const post of taken) this.#readPost(post.sender, post.content, "idle");
    return taken.length;
  }

  /** The current turn state. */
  get status(): TurnStatus {
    return this.#status;
  }

  /** Posts waiting for the busy turn to end. */
  get queued(): number {
    return this.#queue.length;
  }

  /** The `text` of every socket read, in order. */
  socketTexts(): string[] {
    return this.reads.filter((read) => read.source === "socket").map((read) => read.text);
  }

  /** Tokens in `sender`'s bucket now (30 for a sender never seen). */
  tokens(sender: string): number {
    const state = this.#senders.get(sender);
    if (state === undefined) return CLAUDE_CODE_RECEIVER_LIMITS.bucketCapacity;
    return this.#refill(state, this.#now());
  }

  /** Admits one post whose write succeeded (auth and content checks already passed). */
  admit(sender: string, content: string): AdmissionOutcome {
    const now = this.#now();
    const { bucketCapacity, duplicateWindowMs, busyQueueCap } = CLAUDE_CODE_RECEIVER_LIMITS;
    let state = this.#senders.get(sender);
    if (state === undefined) {
      state = { tokens: bucketCapacity, tokensAt: now, last: undefined, lastAt: 0 };
      this.#senders.set(sender, state);
    }
    const duplicate = state.last === content && now - state.lastAt < duplicateWindowMs;
    state.last = content;
    state.lastAt = now;
    if (duplicate) return "duplicate";
    state.tokens = this.#refill(state, now);
    state.tokensAt = Math.max(now, state.tokensAt);
    if (state.tokens < 1) return "rate_limited";
    const recording = this.#recording();
    if (recording !== "record") {
      state.tokens -= 1;
      if (recording === "drop") return "dropped";
      this.#late.push({ sender, content });
      return "late";
    }
    if (this.#status === "busy") {
      if (this.#queue.length >= busyQueueCap) {
        state.tokens -= 1;
        return "queue_full";
      }
      state.tokens -= 1;
      this.#queue.push({ sender, content });
      this.#onEnqueue?.(content);
      return "queued";
    }
    state.tokens -= 1;
    this.#onEnqueue?.(content);
    this.#readPost(sender, content, "idle");
    if (this.#autoTurn) this.#setStatus("busy");
    return "delivered";
  }

  #readPost(sender: string, content: string, how: "idle" | "queued"): void {
    this.reads.push({ source: "socket", text: content, sender });
    this.#onRead?.(content, how);
  }

  /**
   * Records hook output the model reads (SessionStart / UserPromptSubmit, exit 0): `text` the
   * trimmed stdout, `rendered` what the model reads of it.
   */
  readHookOutput(hookEvent: string, text: string, previewed: boolean, rendered?: string): void {
    this.reads.push({
      source: "hook",
      text,
      hookEvent,
      ...(previewed ? { previewed } : {}),
      ...(rendered === undefined ? {} : { rendered }),
    });
  }

  /** A turn starts (e.g. the user typed a prompt): `busy`. */
  beginTurn(): void {
    this.#setStatus("busy");
  }

  /**
   * The current turn ends. Queued posts are read by the model in a new turn (status stays
   * `busy`; call again to end that one); with nothing queued the session turns `idle`.
   * Returns how many queued posts the model read.
   */
  endTurn(): number {
    if (this.#queue.length > 0) {
      const taken = this.#queue.splice(0);
      for (const post of taken) this.#readPost(post.sender, post.content, "queued");
      this.#setStatus("busy");
      return taken.length;
    }
    this.#setStatus("idle");
    return 0;
  }

  /** Ends turns until the session is idle (the queue drained); returns how many posts were read. */
  settle(): number {
    let taken = 0;
    while (this.#status === "busy") taken += this.endTurn();
    return taken;
  }

  /** Flips the status directly (no queue handling): for tests of registry readers. */
  setStatus(status: TurnStatus): void {
    this.#setStatus(status);
  }

  #refill(state: SenderState, now: number): number {
    const { bucketCapacity, refillPerSecond } = CLAUDE_CODE_RECEIVER_LIMITS;
    const elapsed = Math.max(0, now - state.tokensAt);
    return Math.min(bucketCapacity, state.tokens + (elapsed * refillPerSecond) / 1000);
  }

  #setStatus(status: TurnStatus): void {
    const changed = status !== this.#status;
    this.#status = status;
    if (changed) this.#onStatus?.(status);
  }
}
