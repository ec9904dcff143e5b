import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import {
  ATTACHMENT_LIMITS,
  type AttachmentLimits,
  containsJoinSecretShape,
  isAttachmentName,
  type MessageAttachment,
} from "../../protocol/index.ts";
import type { AttachmentSettings } from "./attachment-settings.ts";
import { isCredentialName } from "./credential-names.ts";
import { gitIgnored } from "./git-ignored.ts";

/**
 * Why a file was refused as an attachment (docs/43-session-cli.md, "Attachments"), in the order
 * the rules are checked:
 * - `unreadable`: nothing there, or it cannot be opened;
 * - `brigade_folder`: inside Brigade's own configuration or state folder (never widened);
 * - `outside_project`: its real path (links resolved) is outside the session's project folder
 *   and every extra folder of the settings;
 * - `not_regular`: a folder, a device, a FIFO, a socket;
 * - `unsendable_name`: its name holds a control character (a message cannot carry it);
 * - `git_dir`: inside a `.git` folder;
 * - `credential_name`: its name is one credentials are kept under (`CREDENTIAL_NAME_PATTERNS`);
 * - `git_ignored`: git ignores it; `git_unknown`: git could not be asked;
 * - `too_large`, `too_many`, `message_too_large`: over the limits `describe` advertises;
 * - `brigade_secret`: its bytes hold a join secret or a Brigade credential (never widened);
 * - `no_project`: the session recorded no project folder, and no extra folder holds the file.
 */
export const ATTACHMENT_REFUSALS = [
  "unreadable",
  "brigade_folder",
  "no_project",
  "outside_project",
  "not_regular",
  "unsendable_name",
  "git_dir",
  "credential_name",
  "git_ignored",
  "git_unknown",
  "too_large",
  "too_many",
  "message_too_large",
  "brigade_secret",
] as const;

/** One of {@link ATTACHMENT_REFUSALS}. */
export type AttachmentRefusal = (typeof ATTACHMENT_REFUSALS)[number];

/** What the rules are checked against. */
export interface AttachmentScope {
  /** The session's project folder (absolute), or `undefined` when it recorded none. */
  readonly project: string | undefined;
  /** The folder relative paths are resolved in (the command's working folder). */
  readonly cwd: string;
  /** Brigade's own folders (configuration, state): nothing in them is ever attached. */
  readonly brigadeFolders: readonly string[];
  /** Secrets whose bytes no attachment may hold (the profiles' bearer tokens). */
  readonly secrets: readonly string[];
  /** How the person widened the rules. */
  readonly settings: AttachmentSettings;
  /** The limits `describe` advertised (`DescribeResult.attachments`). */
  readonly limits: AttachmentLimits;
  /** The environment git runs with (`PATH`, `HOME`). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * A file that passed every rule, open on the descriptor every check was made on: its digest and
 * size (read once, whole, through that descriptor) and the name a message gives it (its last path
 * component). `bytes()` reads it again from its start for the upload; `close()` releases it.
 */
export interface PreparedAttachment {
  readonly attachment: MessageAttachment;
  bytes(): AsyncIterable<Uint8Array>;
  close(): void;
}

/** Result of {@link prepareAttachments}. */
export type PreparedAttachments =
  | { readonly ok: true; readonly files: readonly PreparedAttachment[] }
  | { readonly ok: false; readonly index: number; readonly refusal: AttachmentRefusal };

/** `path` when it is `folder` or inside it (both real paths). */
function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function real(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

const PIECE = 256 * 1024;
// Long enough to hold a join secret or a token split across two pieces.
const OVERLAP = 1024;

/**
 * Reads the open file once: its SHA-256, and whether its bytes hold a join secret's shape or one
 * of `secrets`. Bounded memory: one piece and a short overlap.
 */
function digestAndScan(fd: number, size: number, secrets: readonly string[]) {
  const hash = createHash("sha256");
  const piece = Buffer.allocUnsafe(PIECE);
  let carry = "";
  let secret = false;
  let position = 0;
  while (position < size) {
    const read = readSync(fd, piece, 0, Math.min(PIECE, size - position), position);
    if (read === 0) break;
    const bytes = piece.subarray(0, read);
    hash.update(bytes);
    const text = carry + bytes.toString("latin1");
    if (containsJoinSecretShape(text) || secrets.some((s) => s !== "" && text.includes(s))) {
      secret = true;
    }
    carry = text.slice(-OVERLAP);
    position += read;
  }
  return { sha256: hash.digest("hex"), read: position, secret };
}

/** The root the file falls under: the project folder or an extra one (real paths), if any. */
function rootOf(path: string, scope: AttachmentScope): string | undefined {
  const roots = [scope.project, ...scope.settings.extraFolders]
    .filter((root): root is string => root !== undefined)
    .map(real)
    .filter((root): root is string => root !== undefined);
  return roots.find((root) => inside(path, root));
}

async function* noBytes(): AsyncGenerator<Uint8Array> {}

/**
 * Whether the open descriptor `fd` is the file at `path`: on Linux, `/proc/self/fd/<fd>` names the
 * file it holds; where that is not available the check passes (the path was resolved just before).
 */
function openedAt(fd: number, path: string): boolean {
  let held: string;
  try {
    held = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return true;
  }
  return held === path;
}

type OneFile =
  | { ok: true; fd: number; size: number; sha256: string; name: string }
  | { ok: false; refusal: AttachmentRefusal };

function checkOne(given: string, scope: AttachmentScope): OneFile {
  const path = real(isAbsolute(given) ? given : resolve(scope.cwd, given));
  if (path === undefined) return { ok: false, refusal: "unreadable" };
  const brigade = scope.brigadeFolders.map(real).filter((f): f is string => f !== undefined);
  if (brigade.some((folder) => inside(path, folder)))
    return { ok: false, refusal: "brigade_folder" };
  const root = rootOf(path, scope);
  if (root === undefined) {
    return { ok: false, refusal: scope.project === undefined ? "no_project" : "outside_project" };
  }
  let fd: number;
  try {
    // The real path has no link left; O_NOFOLLOW refuses one swapped in since.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { ok: false, refusal: "unreadable" };
  }
  const refuse = (refusal: AttachmentRefusal): OneFile => {
    closeSync(fd);
    return { ok: false, refusal };
  };
  // The real path was resolved before the open; a folder on the way swapped for a link since would
  // have been followed. Where the system says which file a descriptor holds, it must be that path.
  if (!openedAt(fd, path)) return refuse("outside_project");
  const stats = fstatSync(fd);
  if (!stats.isFile()) return refuse("not_regular");
  const inTree = relative(root, path);
  const parts = inTree.split(sep);
  if (!scope.settings.allowGitDir && parts.includes(".git")) return refuse("git_dir");
  const name = basename(path);
  if (!isAttachmentName(name)) return refuse("unsendable_name");
  if (isCredentialName(name, scope.settings.allowNames)) return refuse("credential_name");
  if (!scope.settings.allowGitIgnored && inTree !== "") {
    const answer = gitIgnored(root, parts.join("/"), scope.env);
    if (answer === "ignored") return refuse("git_ignored");
    if (answer === "no_git") return refuse("git_unknown");
  }
  if (stats.size > scope.limits.max_attachment_bytes) return refuse("too_large");
  const scanned = digestAndScan(fd, stats.size, scope.secrets);
  if (scanned.secret) return refuse("brigade_secret");
  // A file that shrank while it was read is sent as what was read; the upload checks the rest.
  return { ok: true, fd, size: scanned.read, sha256: scanned.sha256, name };
}

/**
 * Checks the files a session wants to attach, in order, against the rules of
 * {@link ATTACHMENT_REFUSALS} (the first rule a file breaks refuses the whole send, naming the
 * file's position, never its path), then the count and total against `scope.limits`. Each file
 * passing is opened once, without following a link, and read once for its digest and the secret
 * scan; it stays open for the upload, so the bytes sent are those of the file checked. On a
 * refusal every file opened is closed. Never throws for a file's sake.
 *
 * @example const r = prepareAttachments(["build.log"], scope); if (r.ok) for (const f of r.files) …
 */
export function prepareAttachments(
  paths: readonly string[],
  scope: AttachmentScope,
): PreparedAttachments {
  const max = Math.min(
    scope.limits.max_attachments_per_message,
    ATTACHMENT_LIMITS.max_attachments_per_message,
  );
  if (paths.length > max) return { ok: false, index: max, refusal: "too_many" };
  const files: PreparedAttachment[] = [];
  let total = 0;
  for (const [index, given] of paths.entries()) {
    const one = checkOne(given, scope);
    if (!one.ok) {
      for (const f of files) f.close();
      return { ok: false, index, refusal: one.refusal };
    }
    total += one.size;
    const { fd, size, sha256, name } = one;
    let open = true;
    files.push({
      attachment: { sha256, size, name },
      // An empty file has no byte to end at: a stream over it would read one that grew since.
      bytes: () =>
        size === 0
          ? noBytes()
          : createReadStream("", {
              fd,
              start: 0,
              end: size - 1,
              autoClose: false,
              highWaterMark: PIECE,
            }),
      close: () => {
        if (open) closeSync(fd);
        open = false;
      },
    });
    if (total > scope.limits.max_message_attachment_bytes) {
      for (const f of files) f.close();
      return { ok: false, index, refusal: "message_too_large" };
    }
  }
  return { ok: true, files };
}
