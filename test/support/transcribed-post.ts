import type { InboxPostOptions, InboxPostResult } from "../../src/harness/claude-code/index.ts";
import { TranscriptWriter } from "./claude-code-host/index.ts";

type Post = (options: InboxPostOptions) => Promise<InboxPostResult>;

/**
 * Wraps a recording inbox post so that every successful post also lands in the transcript at
 * `transcriptPath` the way Claude Code writes a post taken while idle (an `enqueue`, a `dequeue`
 * and a peer `user` entry): the watcher acks only what the transcript shows in the conversation.
 *
 * @example runWatcher({ …, post: transcribedPost(transcript, async () => ({ ok: true })) });
 */
export function transcribedPost(transcriptPath: string, post: Post): Post {
  const writer = new TranscriptWriter(
    () => transcriptPath,
    () => "native",
  );
  return async (options) => {
    const result = await post(options);
    if (result.ok) {
      writer.enqueued(options.content);
      writer.read(options.content, "idle");
    }
    return result;
  };
}
