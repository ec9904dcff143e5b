/**
 * The `privateTo` check for a file this process's user must own with an owner-only mode:
 * `{ privateTo: uid }`, or `{}` where the platform has no uids (`process.getuid` absent: there is
 * no owner or mode to check). Spread it into the options of `readLocalFile` / `openLocalFile`.
 *
 * @example readLocalFile(path, { maxBytes: 1024, ...privateToThisUser() })
 */
export function privateToThisUser(): { readonly privateTo?: number } {
  const uid = process.getuid?.();
  return uid === undefined ? {} : { privateTo: uid };
}
