import type { DoorContext } from "../../src/harness/host-session/index.ts";
import type { DoneResult, InboundItem } from "../../src/harness/inbound/index.ts";

/**
 * A door's inbound pipeline for unit tests: `queue` is taken in order (`peek`, `next`), and each
 * `done` is recorded in `done` as the message id (a notice's kind), with `:<error>` when it
 * failed; a message done without an error answers "ack".
 *
 * @example const { pipeline, done } = standInDoorPipeline(queue);
 */
export function standInDoorPipeline(queue: InboundItem[]): {
  readonly pipeline: DoorContext["pipeline"];
  readonly done: string[];
} {
  const done: string[] = [];
  const pipeline: DoorContext["pipeline"] = {
    peek: () => queue[0],
    next: () => queue.shift(),
    done: (item, error?: unknown): DoneResult => {
      const id = item.kind === "notice" ? item.notice : item.message.message_id;
      done.push(error === undefined ? id : `${id}:${String(error)}`);
      return error === undefined && item.kind === "message"
        ? { ack: true, messageId: id, persisted: true }
        : { ack: false };
    },
  };
  return { pipeline, done };
}
