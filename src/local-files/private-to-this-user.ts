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

/**
 * This process's uid, or `-1` where the platform has no uids (no file is owned by `-1`, so an
 * ownership check against it refuses rather than passes). The default of every `uid` option.
 *
 * @example const uid = options.uid ?? currentUid();
 */
export function currentUid(): number {
  return process.getuid?.() ?? -1;
}
