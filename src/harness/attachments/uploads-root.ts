import { spawnSync } from "node:child_process";
import {
  accessSync,
  appendFileSync,
  constants,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
} from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

/** LLMSafeSpaces' uploads folder: used when it exists and this user can write it. */
export const WORKSPACE_UPLOADS = "/workspace/uploads";

/** The uploads folder inside a session's project when there is no `/workspace/uploads/`. */
export const PROJECT_UPLOADS_FOLDER = ".brigade-uploads";

/** Where received files go: the folder, and whether it is LLMSafeSpaces' own. */
export type UploadsRoot =
  | { readonly ok: true; readonly dir: string; readonly kind: "workspace" | "project" }
  | { readonly ok: false; readonly reason: "no_project" | "io_error" };

/** Options of {@link resolveUploadsRoot}. */
export interface UploadsRootOptions {
  /** The session's project folder (the map's `checkout`), absolute; `undefined` when unknown. */
  readonly project: string | undefined;
  /** The environment git runs with (only `PATH` and `HOME` are passed on). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** LLMSafeSpaces' folder to prefer; {@link WORKSPACE_UPLOADS} unless a test says otherwise. */
  readonly workspaceUploads?: string;
}

function writableFolder(path: string): boolean {
  try {
    if (!statSync(path).isDirectory()) return false;
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The uploads root of a receiving session (docs/15-attachments.md "Receiving"):
 * `/workspace/uploads` when it is a folder this user can write (LLMSafeSpaces' layout; the
 * manifest is then exactly v1), else **[ours]** `<project>/.brigade-uploads`, created 0700 when
 * missing (a link there is refused) and listed in the repository's `info/exclude` so git never
 * offers it for a commit (and the sender rules, which refuse git-ignored files, never send a
 * received file on by default). Inside the project, Claude Code's Read tool opens the files with
 * no permission prompt. `no_project` when the session names no absolute project folder. Never
 * throws.
 *
 * @example resolveUploadsRoot({ project: "/home/dana/api", env: process.env }) // { ok: true, dir: "/home/dana/api/.brigade-uploads", kind: "project" }
 */
export function resolveUploadsRoot(options: UploadsRootOptions): UploadsRoot {
  const workspace = options.workspaceUploads ?? WORKSPACE_UPLOADS;
  if (writableFolder(workspace)) return { ok: true, dir: resolve(workspace), kind: "workspace" };
  const project = options.project;
  if (project === undefined || !isAbsolute(project)) return { ok: false, reason: "no_project" };
  const dir = join(project, PROJECT_UPLOADS_FOLDER);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST")
      return { ok: false, reason: "io_error" };
  }
  try {
    if (!lstatSync(dir).isDirectory()) return { ok: false, reason: "io_error" };
  } catch {
    return { ok: false, reason: "io_error" };
  }
  excludeFromGit(project, options.env);
  return { ok: true, dir, kind: "project" };
}

const EXCLUDE_LINE = `/${PROJECT_UPLOADS_FOLDER}/`;

/**
 * Adds `/.brigade-uploads/` to the `info/exclude` file of the repository `project` is the top of
 * (asked of git, so a linked worktree finds its common folder); nothing when the line is there,
 * the project is no repository's top, or git cannot be run.
 */
function excludeFromGit(project: string, env: Readonly<Record<string, string | undefined>>): void {
  const git = (args: string[]): string | undefined => {
    const r = spawnSync("git", ["-C", project, ...args], {
      env: { PATH: env.PATH ?? "/usr/bin:/bin", HOME: env.HOME ?? "/" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
    });
    return r.status === 0 && typeof r.stdout === "string" ? r.stdout.trim() : undefined;
  };
  // Only at the top of a work tree does `/.brigade-uploads/` name this folder.
  if (git(["rev-parse", "--show-prefix"]) !== "") return;
  const relativePath = git(["rev-parse", "--git-path", "info/exclude"]);
  if (relativePath === undefined || relativePath === "") return;
  const file = isAbsolute(relativePath) ? relativePath : join(project, relativePath);
  let current = "";
  try {
    current = readFileSync(file, "utf8");
  } catch {
    // no exclude file yet: it is created below
  }
  if (current.split("\n").some((line) => line.trim() === EXCLUDE_LINE)) return;
  try {
    mkdirSync(join(file, ".."), { recursive: true });
  } catch {
    return;
  }
  const lead = current === "" || current.endsWith("\n") ? "" : "\n";
  try {
    appendFileSync(file, `${lead}${EXCLUDE_LINE}\n`);
  } catch {
    // the files are still received; git may then list the folder as untracked
  }
}
