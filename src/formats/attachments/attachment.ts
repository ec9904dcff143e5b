/**
 * One entry of an attachment manifest (docs/spec/formats.md §4): the file's absolute path in the
 * workspace and the display name (the path after the UUID, control characters removed). Paths read
 * by `parse` are not validated: re-check them with `validatePaths` before trusting them.
 *
 * @example const a: Attachment = { path: "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-x.csv", name: "x.csv" };
 */
export interface Attachment {
  readonly path: string;
  readonly name: string;
}
