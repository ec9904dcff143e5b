import { parentPid } from "../watcher/index.ts";

/**
 * Most ancestors {@link processAncestors} walks. A coding-agent host starts its MCP servers as
 * its children or grandchildren (through a shell or a package runner), so a binding further up
 * than this is not the host's own.
 */
export const MAX_ANCESTORS = 16;

/**
 * The pids above `pid`, nearest first: its parent, that one's parent, and so on, up to
 * {@link MAX_ANCESTORS}, ending before pid 1 (init, never a host) and where a parent cannot be
 * read or a pid repeats. `parentOf` is injected for tests ({@link parentPid} by default). Never
 * throws.
 *
 * @example processAncestors(process.pid)[0] === process.ppid
 */
export function processAncestors(
  pid: number,
  parentOf: (pid: number) => number | undefined = parentPid,
): number[] {
  const found: number[] = [];
  let current = pid;
  while (found.length < MAX_ANCESTORS) {
    const parent = parentOf(current);
    if (parent === undefined || parent <= 1 || parent === pid || found.includes(parent)) break;
    found.push(parent);
    current = parent;
  }
  return found;
}
