/**
 * The edit distance between `a` and `b` (insertions, deletions, substitutions and swaps of two
 * neighbours, one each), by UTF-16 code unit: command names are ASCII.
 *
 * @example editDistance("sned", "send") === 1
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * The known name nearest to `typed`, when it is near enough to be what the person meant: within
 * two edits (one for names of up to four characters), or a name `typed` is a prefix of (at least
 * two characters). Ties go to the earlier name of `known`. `undefined` when nothing is near, and
 * for input over 64 characters (nobody mistypes that much; the work stays small).
 *
 * @example nearestName("sesions", ["send", "sessions"]) === "sessions"
 */
export function nearestName(typed: string, known: readonly string[]): string | undefined {
  if (typed.length === 0 || typed.length > 64) return undefined;
  const lower = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name);
    const limit = name.length <= 4 ? 1 : 2;
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { name, distance };
    }
  }
  if (best !== undefined) return best.name;
  if (lower.length >= 2) return known.find((name) => name.startsWith(lower));
  return undefined;
}
