import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { type BrigadeCommand, shellWord } from "../host-session/index.ts";
import { CLINE_GLOBAL_HOOKS_FOLDER } from "./cline-facts.ts";
import { CLINE_HOOKS } from "./cline-hook.ts";

/** The line under the `#!` of every hook file Brigade writes: how its own files are told apart. */
export const CLINE_HOOK_MARKER =
  "# Brigade: written by brigade install cline; brigade uninstall cline removes it.";

/**
 * The documents folder Cline 2.18.0 puts its global `Cline/Hooks` under on Linux: what
 * `xdg-user-dir DOCUMENTS` prints (run with `env`, as Cline runs it with its own) when that
 * program runs and prints an absolute path, else `<HOME>/Documents`; `undefined` when `HOME` is
 * not absolute. Never throws.
 *
 * @example clineDocumentsDir({ HOME: "/home/dana", PATH: "/usr/bin" }) // "/home/dana" without a user-dirs.dirs
 */
export function clineDocumentsDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const home = env.HOME ?? "";
  if (!isAbsolute(home)) return undefined;
  try {
    const printed = execFileSync("xdg-user-dir", ["DOCUMENTS"], {
      env: env as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 5_000,
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    if (printed !== "" && isAbsolute(printed)) return printed;
  } catch {
    // no xdg-user-dir: Cline falls back to ~/Documents too
  }
  return join(home, "Documents");
}

/**
 * Cline's global hooks folder (`CLINE_GLOBAL_HOOKS_FOLDER` under {@link clineDocumentsDir}), or
 * `undefined` when `HOME` is not absolute.
 *
 * @example clineHooksDir({ HOME: "/home/dana" }) // "/home/dana/Documents/Cline/Hooks" on a desktop
 */
export function clineHooksDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const documents = clineDocumentsDir(env);
  return documents === undefined ? undefined : join(documents, ...CLINE_GLOBAL_HOOKS_FOLDER);
}

/**
 * The hook files Brigade installs into Cline's hooks folder: file name (the Cline event,
 * `CLINE_HOOKS`) → its text, a `sh` script that runs `<node> <cli> host-hook cline <event>`
 * with the hook's stdin (each path one single-quoted word: a space or a `$` in it expands
 * nothing), marked with {@link CLINE_HOOK_MARKER}. Nothing secret is in any of them.
 *
 * @example clineHookFiles({ node: "/usr/bin/node", cli: "/w/brigade/dist/cli/main.js" }).TaskStart
 */
export function clineHookFiles(command: BrigadeCommand): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [clineEvent, event] of Object.entries(CLINE_HOOKS)) {
    const run = [command.node, command.cli, "host-hook", "cline", event].map(shellWord).join(" ");
    files[clineEvent] = `#!/bin/sh\n${CLINE_HOOK_MARKER}\nexec ${run}\n`;
  }
  return files;
}

/**
 * Whether the hook file at `path` is one Brigade wrote (its second line is
 * {@link CLINE_HOOK_MARKER}), absent, or someone else's (any other file, a link, a folder).
 * Never throws.
 *
 * @example clineHookOwnership("/home/dana/Documents/Cline/Hooks/TaskStart") // "ours"
 */
export function clineHookOwnership(path: string): "ours" | "absent" | "foreign" {
  let text: string;
  try {
    text = readFileSync(path, { encoding: "utf8", flag: "r" });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "foreign";
  }
  return text.split("\n")[1] === CLINE_HOOK_MARKER ? "ours" : "foreign";
}
