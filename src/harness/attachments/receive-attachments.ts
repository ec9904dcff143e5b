import { createHash, type Hash } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  futimesSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { Attachment } from "../../formats/attachments/index.ts";
import { type Adapter, isBapError, type MessageAttachment } from "../../protocol/index.ts";
import { cleanAttachmentName, receivedFileId } from "./clean-name.ts";

/**
 * Why a message's files could not be received (the message is then not delivered; the server
 * offers it again, and the next attempt resumes where this one stopped):
 * - `no_uploads_folder`: no uploads root (the session names no project folder, or it cannot be
 *   created);
 * - `no_download`: the backend has no `message.attachments` capability;
 * - `not_found`: the server has no such blob for this session (expired, or never readable);
 * - `download_failed`: the connection or the server failed (the partial file is kept);
 * - `mismatch`: the bytes are not the blob the message names (wrong size or SHA-256: discarded);
 * - `path_taken`: something that is not our received file holds the file's path;
 * - `io_error`: the local disk refused a write.
 */
export const RECEIVE_FAILURES = [
  "no_uploads_folder",
  "no_download",
  "not_found",
  "download_failed",
  "mismatch",
  "path_taken",
  "io_error",
] as const;

/** One of {@link RECEIVE_FAILURES}. */
export type ReceiveFailure = (typeof RECEIVE_FAILURES)[number];

/** The files of one message, written and verified, or why not (with the file's position). */
export type ReceivedFiles =
  | { readonly ok: true; readonly files: readonly Attachment[] }
  | { readonly ok: false; readonly reason: ReceiveFailure; readonly index?: number };

/** What {@link receiveAttachments} receives for. */
export interface ReceiveRequest {
  /** `messageDownload` of the session's adapter. */
  readonly adapter: Pick<Adapter, "messageDownload">;
  /** The recipient session (part of each file's name, so sessions never share a path). */
  readonly sessionId: string;
  /** The message: its id, its `created_at` (the files' time) and the blobs it names. */
  readonly message: {
    readonly message_id: string;
    readonly created_at: string;
    readonly attachments?: readonly MessageAttachment[] | undefined;
  };
  /** The uploads root (`resolveUploadsRoot`), or `undefined` when there is none. */
  readonly dir: string | undefined;
  /** Cancels the downloads (a hook's deadline); the partial files stay for the next attempt. */
  readonly signal?: AbortSignal;
}

/** Bytes hashed per read when a partial file is resumed. */
const READ_CHUNK = 1 << 20;

/**
 * Downloads the blobs `message` names, before the message is delivered (docs/15-attachments.md
 * "Receiving"), into `dir`, one file each, named `<id>-<clean name>` (`receivedFileId`,
 * `cleanAttachmentName`). Each blob goes first to a partial file `.<id>.part` in `dir` (created
 * 0600 without following a link; an existing one is resumed with `message download --offset`,
 * its bytes hashed again), is checked against the message's size and SHA-256 (a mismatch is
 * deleted), made 0600 (never executable), given the message's time, fsynced and then hard-linked
 * to its final name: `link(2)` never replaces anything, so a final path holds either nothing or a
 * whole, verified file. A final file already there from an earlier attempt (a regular file of
 * this user, not a link) is taken as it is. Returns the files as manifest entries (absolute path,
 * clean name), in the message's order, or the first failure. No attachments → `{ ok: true, files:
 * [] }` and nothing is touched. Never throws.
 *
 * @example const r = await receiveAttachments({ adapter, sessionId, message, dir }); if (r.ok) build(message, team, instruction, r.files);
 */
export async function receiveAttachments(request: ReceiveRequest): Promise<ReceivedFiles> {
  const attachments = request.message.attachments ?? [];
  if (attachments.length === 0) return { ok: true, files: [] };
  if (request.dir === undefined) return { ok: false, reason: "no_uploads_folder" };
  if (request.adapter.messageDownload === undefined) return { ok: false, reason: "no_download" };
  const createdMs = Date.parse(request.message.created_at);
  const files: Attachment[] = [];
  for (let index = 0; index < attachments.length; index++) {
    const attachment = attachments[index] as MessageAttachment;
    const id = receivedFileId(
      request.sessionId,
      request.message.message_id,
      index,
      attachment.sha256,
    );
    const name = cleanAttachmentName(attachment.name);
    const path = join(request.dir, `${id}-${name}`);
    const result = await receiveOne({
      adapter: request.adapter,
      attachment,
      path,
      partial: join(request.dir, `.${id}.part`),
      timeSeconds: Number.isFinite(createdMs) ? createdMs / 1000 : Date.now() / 1000,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    if (result !== "ok") return { ok: false, reason: result, index };
    files.push({ path, name });
  }
  return { ok: true, files };
}

interface OneFile {
  readonly adapter: Pick<Adapter, "messageDownload">;
  readonly attachment: MessageAttachment;
  readonly path: string;
  readonly partial: string;
  readonly timeSeconds: number;
  readonly signal?: AbortSignal;
}

/** `ours` when `path` is a regular file of this user (not a link), `absent`, else `taken`. */
function finalState(path: string): "ours" | "absent" | "taken" {
  try {
    const st = lstatSync(path);
    const uid = process.getuid?.();
    return st.isFile() && (uid === undefined || st.uid === uid) ? "ours" : "taken";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "taken";
  }
}

async function receiveOne(file: OneFile): Promise<"ok" | ReceiveFailure> {
  const before = finalState(file.path);
  if (before === "ours") return "ok";
  if (before === "taken") return "path_taken";
  let fd: number;
  try {
    fd = openSync(
      file.partial,
      constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o600,
    );
  } catch {
    return "io_error";
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || st.nlink !== 1 || (uid !== undefined && st.uid !== uid)) {
      return "path_taken";
    }
    const fetched = await fillPartial(fd, st.size, file);
    if (fetched !== "ok") return fetched;
    // Another path of this session may share the partial file: it must still hold the whole blob.
    if (fstatSync(fd).size !== file.attachment.size) return "download_failed";
    fchmodSync(fd, 0o600);
    futimesSync(fd, file.timeSeconds, file.timeSeconds);
    fsyncSync(fd);
  } catch {
    return "io_error";
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(file.partial, file.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" || finalState(file.path) !== "ours") {
      return code === "EEXIST" ? "path_taken" : "io_error";
    }
  }
  removeQuietly(file.partial);
  return "ok";
}

/**
 * Brings the partial file on `fd` (now `have` bytes long) to the whole blob: hashes what is
 * there, downloads the rest from that offset, appends it, and checks size and digest. A partial
 * longer than the blob, or bytes that do not match, leave an empty partial behind.
 */
async function fillPartial(
  fd: number,
  have: number,
  file: OneFile,
): Promise<"ok" | ReceiveFailure> {
  const { sha256, size } = file.attachment;
  const hash = createHash("sha256");
  let length = have;
  if (length > size) {
    ftruncateSync(fd, 0);
    length = 0;
  }
  hashExisting(fd, length, hash);
  if (length < size) {
    const download = file.adapter.messageDownload;
    if (download === undefined) return "no_download";
    let stream: Awaited<ReturnType<NonNullable<Adapter["messageDownload"]>>>;
    try {
      stream = await download.call(file.adapter, sha256, {
        offset: length,
        ...(file.signal === undefined ? {} : { signal: file.signal }),
      });
    } catch (error) {
      return isBapError(error) && error.code === "not_found" ? "not_found" : "download_failed";
    }
    if (stream.sha256 !== sha256 || stream.size !== size || stream.offset !== length) {
      return "mismatch";
    }
    try {
      for await (const chunk of stream.body) {
        if (length + chunk.length > size) {
          ftruncateSync(fd, 0);
          return "mismatch";
        }
        writeAt(fd, chunk, length);
        hash.update(chunk);
        length += chunk.length;
      }
    } catch {
      // what arrived is kept: the next attempt resumes from there
      return "download_failed";
    }
  }
  if (length !== size) return "download_failed";
  if (hash.digest("hex") !== sha256) {
    ftruncateSync(fd, 0);
    return "mismatch";
  }
  return "ok";
}

function hashExisting(fd: number, length: number, hash: Hash): void {
  const buffer = Buffer.alloc(Math.min(READ_CHUNK, Math.max(1, length)));
  let position = 0;
  while (position < length) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, length - position), position);
    if (n === 0) break;
    hash.update(buffer.subarray(0, n));
    position += n;
  }
}

/** Writes all of `bytes` at `position` (a resumed file is written where it ends). */
function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  let offset = 0;
  while (offset < bytes.length) {
    offset += writeSync(fd, bytes, offset, bytes.length - offset, position + offset);
  }
}

/** Removes `path`, ignoring every failure (it may be gone already). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing more to undo
  }
}
