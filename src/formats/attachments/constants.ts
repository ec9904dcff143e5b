/**
 * The only directory attachments may live in: `/workspace/uploads/` (19 bytes). A valid path is
 * this prefix, a lower-case UUID, a hyphen, then the file name (56 characters before the name).
 *
 * @example `${UPLOADS_PREFIX}0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-plan.md`
 */
export const UPLOADS_PREFIX = "/workspace/uploads/";

/**
 * Most files one message may carry (docs/spec/formats.md §4.2); more → `TOO_MANY_FILES`.
 *
 * @example if (files.length > MAX_FILES) reject();
 */
export const MAX_FILES = 10;

/** Length of `UPLOADS_PREFIX` + 36-character UUID + `-`: where the file name starts. */
export const NAME_OFFSET = 56;

/** What every manifest line starts with, up to the path value. */
export const LINE_START = '[llmsafespaces:attachment path="';

/** Between the path value and the name value. */
export const LINE_MIDDLE = '" name="';

/** After the name value. */
export const LINE_END = '"]';
