/**
 * What tells a coding-agent client's own process from any other (docs/43-session-cli.md, "Telling
 * the person's terminal apart"): each client folder declares one, measured on the real client.
 * Names are compared whole, never as a prefix, so a person's `claude-notes` script is no client.
 */
export interface ProcessSignature {
  /**
   * The client's executable names: a process whose program (the last path segment of `argv[0]`,
   * or its `comm`) is one of them, or a JavaScript runtime ({@link SCRIPT_RUNTIMES}) whose script
   * (its first argument that is not an option) is named one of them (`node /usr/local/bin/gemini`).
   */
  readonly executables: readonly string[];
  /**
   * Path fragments of the client's install folder, each with its leading and trailing `/`
   * (`/node_modules/@google/gemini-cli/`): a process whose program path, or a runtime's argument,
   * holds one.
   */
  readonly folders: readonly string[];
}

/** One process as a matcher sees it: its `comm` (≤ 15 bytes on Linux) and its arguments. */
export interface ProcessLook {
  readonly comm: string;
  readonly argv: readonly string[];
}

/**
 * The programs that run a client's JavaScript (`node`, `nodejs`, `bun`, `deno`): for these the
 * script, not the program, names the client.
 */
export const SCRIPT_RUNTIMES: readonly string[] = Object.freeze(["node", "nodejs", "bun", "deno"]);

/** The last `/`-separated segment of `path`. */
function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * Whether the process `look` is one of `signature`'s: its program named one of the executables;
 * or its program path holding one of the folders; or, for a runtime ({@link SCRIPT_RUNTIMES}), its
 * script named one of the executables or any argument holding one of the folders. Pure: reads
 * nothing. Never throws.
 *
 * @example signatureMatches({ comm: "node", argv: ["node", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"] }, { executables: ["gemini"], folders: ["/node_modules/@google/gemini-cli/"] }) === true
 */
export function signatureMatches(look: ProcessLook, signature: ProcessSignature): boolean {
  const program = look.argv[0] ?? "";
  const name = lastSegment(program);
  if (signature.executables.includes(name) || signature.executables.includes(look.comm)) {
    return true;
  }
  const holdsFolder = (arg: string): boolean =>
    signature.folders.some((folder) => arg.includes(folder));
  if (holdsFolder(program)) return true;
  if (!SCRIPT_RUNTIMES.includes(name) && !SCRIPT_RUNTIMES.includes(look.comm)) return false;
  const args = look.argv.slice(1);
  const script = args.find((arg) => !arg.startsWith("-"));
  if (script !== undefined && signature.executables.includes(lastSegment(script))) return true;
  return args.some(holdsFolder);
}

/**
 * The name of the first of `signatures` (in their order) the process `look` matches
 * ({@link signatureMatches}), or `undefined` for any other process (a shell, tmux, sshd, an editor,
 * a runtime running something else). Never throws.
 *
 * @example processClient({ comm: "claude", argv: ["claude"] }, { "claude-code": { executables: ["claude"], folders: [] } }) === "claude-code"
 */
export function processClient(
  look: ProcessLook,
  signatures: Readonly<Record<string, ProcessSignature>>,
): string | undefined {
  for (const [client, signature] of Object.entries(signatures)) {
    if (signatureMatches(look, signature)) return client;
  }
  return undefined;
}
