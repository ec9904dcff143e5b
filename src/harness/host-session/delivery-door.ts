import type { HeadFiles } from "../attachments/index.ts";
import type { InboundItem, InboundPipeline } from "../inbound/index.ts";
import type { InjectionPacer } from "../pacing/index.ts";
import type { ByPidMap } from "../state/index.ts";

/** One message the shared pipeline hands a door (a notice item is the other kind). */
export type DoorMessageItem = Extract<InboundItem, { readonly kind: "message" }>;

/** What one {@link DeliveryDoor.step} did. */
export type DoorStep = "posted" | "nothing" | "paced" | "failed";

/**
 * What the shared push lane gives a client's door for one live session (docs/49-hosts.md, "The
 * push lane"): the session's inbound pipeline (server order per sender, dedupe, the person's
 * inbound policy), the shared pacer, the text the model reads for a message (sentinel + frame),
 * and the ways back to the server and the log. A door never acks on its own reading of "sent":
 * it calls {@link ack} only once the client's own record of the conversation holds the message.
 */
export interface DoorContext {
  /** The session's inbound pipeline. */
  readonly pipeline: Pick<InboundPipeline, "peek" | "next" | "done">;
  /**
   * Receives the files of the pipeline's head (a `files` item) before the door may post it
   * (`MessageFiles.settleHead`, docs/15-attachments.md "Receiving"): a door posts a message only
   * once this said `ready` or the head needs none.
   */
  readonly settleFiles: () => Promise<HeadFiles>;
  /** The shared pacer, with the client's own limits. */
  readonly pacer: Pick<InjectionPacer, "nextPostAt" | "record" | "observeClaudeQueue">;
  /** The text the model reads for a message: its sentinel + frame. */
  readonly textOf: (item: DoorMessageItem) => string;
  /** Tells the sender what became of a message that did not reach the model. */
  readonly report: (state: "held" | "refused", messageId: string) => void;
  /** Acknowledges a message to the server (batched by the caller). */
  readonly ack: (messageId: string) => void;
  /** One log line: an event name and fields holding ids and codes only, never message text. */
  readonly log: (level: "info" | "warn", event: string, fields: Record<string, string>) => void;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
}

/**
 * One client's door into one live session, driven by the shared push lane: the lane calls
 * {@link step} when the pipeline may have work, {@link confirm} on a timer (1 s) and after the
 * door's own events, and {@link close} when the session ends. Implementations never throw.
 */
export interface DeliveryDoor {
  /** Posts the pipeline's head if there is one and the pacer allows it. */
  step(): Promise<DoorStep>;
  /**
   * Acks each posted message the client's own record of the conversation now holds, and tells
   * the pacer how many of ours still wait inside the client.
   */
  confirm(): Promise<void>;
  /** Messages posted and not yet settled (in the conversation, refused or given back). */
  readonly outstanding: number;
  /** Lets go of the door's connections and sockets; posts nothing after. */
  close(): Promise<void>;
}

/** The live session a client is asked to open a door into (docs/49-hosts.md, "The push lane"). */
export interface DoorSession {
  /** The by-pid map the session-start hook wrote for the client process. */
  readonly map: ByPidMap;
  /** The push lane's environment: the allow-listed variables of the hook that started it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Brigade's configuration folder of the session's team (absolute). */
  readonly configDir: string;
}

/**
 * What {@link HostClient.openDoor} answers: a door, and whether the client will hold every
 * message for its person's review (no consent was given: the sender is told `held`); or why this
 * session has only the pull lane (a reason token, logged and never shown to a model).
 */
export type DoorOpening =
  | { readonly ok: true; readonly door: DeliveryDoor; readonly heldForPerson: boolean }
  | { readonly ok: false; readonly reason: string };
