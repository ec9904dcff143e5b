/**
 * What a session command's work gives its caller (the CLI prints it, `brigade mcp` returns it as
 * a tool result): the text to print, or the exit status and one value-free error line
 * `<code>: <sentence>` without the command's prefix.
 *
 * @example const out: CommandText = { ok: false, status: 6, line: "not_found: …" };
 */
export type CommandText =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      /** The exit status: a refusal's 2 or 3, or a BAP error's. */
      readonly status: number;
      readonly line: string;
    };
