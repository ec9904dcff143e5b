import { lstatSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Adapter } from "../../protocol/index.ts";
import type { InboundPipeline } from "../inbound/index.ts";
import { receiveAttachments } from "./receive-attachments.ts";
import { sweepUploads } from "./sweep-uploads.ts";
import {
  PROJECT_UPLOADS_FOLDER,
  resolveUploadsRoot,
  type UploadsRoot,
  WORKSPACE_UPLOADS,
} from "./uploads-root.ts";

/** What {@link MessageFiles.settleHead} did with the pipeline's head. */
export type HeadFiles = "none" | "ready" | "failed";

/** Construction options of {@link MessageFiles}. */
export interface MessageFilesOptions {
  /** The session's adapter (`message download`). */
  readonly adapter: Pick<Adapter, "messageDownload">;
  /** The receiving Brigade session. */
  readonly sessionId: string;
  /** The session's project folder (the map's `checkout`), absolute, or `undefined`. */
  readonly project: string | undefined;
  /** The environment git runs with when the uploads folder is excluded (PATH and HOME only). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** One log line: an event name and fields holding ids and codes only. */
  readonly log?: (level: "info" | "warn", event: string, fields: Record<string, string>) => void;
  /** LLMSafeSpaces' folder to prefer (tests); default `/workspace/uploads`. */
  readonly workspaceUploads?: string;
}

/**
 * The receiving side of attachments for one session, shared by every delivery path (the Claude
 * Code watcher and hooks, the MCP `inbox` tool, the other clients' doors; docs/15-attachments.md
 * "Receiving"). Before a path delivers the pipeline's head, it calls {@link settleHead}: when the
 * head is a message whose files are not received yet (a `files` item), they are downloaded,
 * verified and written (`receiveAttachments`) into the uploads root (`resolveUploadsRoot`, found
 * once), and the pipeline gets them (`provideFiles`), so the message comes out framed with its
 * manifest; on failure the message is given back unacked (`done` with the reason: the server
 * delivers it again and the download resumes), and one `attachments_failed` line is logged.
 * Held and refused messages never reach the head, so their files are never fetched.
 *
 * @example const files = new MessageFiles({ adapter, sessionId, project: map.checkout }); while ((await files.settleHead(pipeline)) !== "none") {}
 */
export class MessageFiles {
  readonly #o: MessageFilesOptions;
  #root: UploadsRoot | undefined;

  constructor(options: MessageFilesOptions) {
    this.#o = options;
  }

  /** The uploads folder, once found (`undefined` before the first message with files). */
  get uploadsDir(): string | undefined {
    return this.#root?.ok === true ? this.#root.dir : undefined;
  }

  /**
   * Settles the pipeline's head: `none` when it needs no files (a notice, a message without
   * attachments or with its files, or nothing), `ready` when its files were received (the head
   * is now the framed message), `failed` when they could not be (the message left the head,
   * unacked). `signal` cancels a download (the partial file stays). Never throws.
   */
  async settleHead(
    pipeline: Pick<InboundPipeline, "peek" | "next" | "done" | "provideFiles">,
    signal?: AbortSignal,
  ): Promise<HeadFiles> {
    const head = pipeline.peek();
    if (head?.kind !== "files") return "none";
    const message = head.message;
    const root = this.#uploadsRoot();
    let result: Awaited<ReturnType<typeof receiveAttachments>>;
    try {
      result = await receiveAttachments({
        adapter: this.#o.adapter,
        sessionId: this.#o.sessionId,
        message,
        dir: root.ok ? root.dir : undefined,
        ...(signal === undefined ? {} : { signal }),
      });
    } catch {
      result = { ok: false, reason: "io_error" };
    }
    if (result.ok) {
      pipeline.provideFiles(message.message_id, result.files);
      this.#o.log?.("info", "attachments_received", {
        message_id: message.message_id,
        files: String(result.files.length),
      });
      return "ready";
    }
    const item = pipeline.next();
    if (item !== undefined) pipeline.done(item, result.reason);
    this.#o.log?.("warn", "attachments_failed", {
      message_id: message.message_id,
      reason: result.reason,
      ...(result.index === undefined ? {} : { index: String(result.index) }),
    });
    return "failed";
  }

  /**
   * Removes the files of messages older than `retentionSeconds` from the uploads folders this
   * session may have written to (`sweepUploads`; a folder that does not exist is not created).
   * Returns how many files went. Never throws.
   *
   * @example files.sweep(Date.now(), 604_800)
   */
  sweep(nowMs: number, retentionSeconds: number): number {
    const dirs = [this.#o.workspaceUploads ?? WORKSPACE_UPLOADS];
    const project = this.#o.project;
    if (project !== undefined && isAbsolute(project)) {
      dirs.push(join(project, PROJECT_UPLOADS_FOLDER));
    }
    let removed = 0;
    for (const dir of dirs) {
      try {
        if (!lstatSync(dir).isDirectory()) continue;
      } catch {
        continue;
      }
      removed += sweepUploads(dir, nowMs, retentionSeconds);
    }
    if (removed > 0) this.#o.log?.("info", "uploads_swept", { files: String(removed) });
    return removed;
  }

  #uploadsRoot(): UploadsRoot {
    if (this.#root?.ok === true) return this.#root;
    this.#root = resolveUploadsRoot({
      project: this.#o.project,
      env: this.#o.env ?? process.env,
      ...(this.#o.workspaceUploads === undefined
        ? {}
        : { workspaceUploads: this.#o.workspaceUploads }),
    });
    return this.#root;
  }
}
