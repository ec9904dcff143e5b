/**
 * `word` as one POSIX shell word: single-quoted, a `'` inside written `'\''`. A client that runs a
 * hook command through `sh -c` must see a path with a space or a `$` as one argument that expands
 * nothing.
 *
 * @example shellWord("/opt/my node/node") === "'/opt/my node/node'"
 */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
