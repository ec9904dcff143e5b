import { join, relative, sep } from "node:path";
import { ensurePrivateDir } from "../../adapters/index.ts";

/**
 * Creates (or tightens to 0700) every folder from the state root `root` down to `folder`, as the
 * private state writer does.
 *
 * @throws PrivateFileError (`not_private`, `io_error`) from `src/adapters/private-files.ts`.
 * @example ensureStateFolder("/s", "/s/logs");
 */
export function ensureStateFolder(root: string, folder: string): void {
  ensurePrivateDir(root);
  const rest = relative(root, folder);
  if (rest === "" || rest.startsWith("..")) {
    ensurePrivateDir(folder);
    return;
  }
  let current = root;
  for (const part of rest.split(sep)) {
    current = join(current, part);
    ensurePrivateDir(current);
  }
}
