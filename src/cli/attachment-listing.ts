import { oneLine } from "../formats/sanitize/index.ts";

/**
 * What became of a message's files, as `brigade inbox` and `brigade sent` show it
 * (docs/43-session-cli.md, "Attachments"): `held` (the recipient's user holds the message: nothing
 * is downloaded until it is released), `waiting` (on the server, not downloaded yet), `delivered`
 * (downloaded and verified by the recipient, which delivers a message only with its files),
 * `refused` (the recipient turned the message away: never fetched).
 *
 * @example ATTACHMENT_STATES.includes("delivered") === true
 */
export const ATTACHMENT_STATES = ["held", "waiting", "delivered", "refused"] as const;

/** One of {@link ATTACHMENT_STATES}. */
export type AttachmentState = (typeof ATTACHMENT_STATES)[number];

/** One file as the listings print it: the sanitised name (one line, 100 code points), bytes, state. */
export interface ListedFile {
  readonly name: string;
  readonly size: number;
  readonly state: AttachmentState;
}

/**
 * The listed form of `files` (names sanitised with `oneLine`, never a path).
 *
 * @example listedFiles([{ name: "a.log", size: 12 }], "held") // [{ name: "a.log", size: 12, state: "held" }]
 */
export function listedFiles(
  files: readonly { readonly name: string; readonly size: number }[] | undefined,
  state: AttachmentState,
): ListedFile[] {
  return (files ?? []).map((f) => ({ name: oneLine(f.name, 100), size: f.size, state }));
}

/**
 * One text fragment naming `files`: `files: a.log (12 bytes, held), b.bin (3 bytes, held)`;
 * `""` for none.
 *
 * @example attachmentsText([{ name: "a.log", size: 12, state: "held" }]) === "files: a.log (12 bytes, held)"
 */
export function attachmentsText(files: readonly ListedFile[]): string {
  if (files.length === 0) return "";
  const items = files.map(
    (f) => `${f.name} (${f.size} byte${f.size === 1 ? "" : "s"}, ${f.state})`,
  );
  return `files: ${items.join(", ")}`;
}
