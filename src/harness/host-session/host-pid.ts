import { readFileSync } from "node:fs";

/**
 * Program names that stand between a host and the hook it runs (`sh -c "<command>"`): never the
 * host itself. A host starts its hooks through one of these, or directly.
 */
export const SHELL_NAMES: readonly string[] = ["sh", "bash", "dash", "zsh", "ksh", "fish", "env"];

/** `/proc/<pid>/comm` (the program's name, ≤ 15 bytes), or `undefined` where there is none. */
export function procComm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * The pid of the host that started a hook or an MCP server: the nearest of `ancestors` (nearest
 * first, `processAncestors`) whose program is not a shell ({@link SHELL_NAMES}), or `undefined`
 * when every one is (or none is given). `commOf` reads a program name (`procComm` by default;
 * a name that cannot be read counts as not a shell, so the nearest process decides). Never throws.
 *
 * @example hostPidOf([4711, 4700], (pid) => (pid === 4711 ? "bash" : "node")) === 4700
 */
export function hostPidOf(
  ancestors: readonly number[],
  commOf: (pid: number) => string | undefined = procComm,
): number | undefined {
  for (const pid of ancestors) {
    const comm = commOf(pid);
    if (comm === undefined || !SHELL_NAMES.includes(comm)) return pid;
  }
  return undefined;
}
