import { isRedactedRendering, JOIN_SECRET_SHAPE } from "./wire-constants.ts";

/** A secret the suite knows and must never see outside `team create`'s stdout. */
export interface KnownSecret {
  /** How the report names it, e.g. `join secret of T1` (never the value). */
  readonly label: string;
  readonly value: string;
}

/**
 * Where secrets were found in one text. The strings name the secret's label or the
 * docs/spec/protocol.md §9 shape; they never contain the secret itself.
 *
 * @example scanForSecrets("brg1.t-1.s3cr3t", []) // ["a §9 join-secret shape"]
 */
export function scanForSecrets(text: string, known: readonly KnownSecret[]): string[] {
  const hits: string[] = [];
  for (const secret of known) {
    if (secret.value !== "" && text.includes(secret.value)) hits.push(secret.label);
  }
  // Fast path: without the prefix no docs/spec/protocol.md §9 shape can match.
  if (text.includes("brg1.")) {
    for (const match of text.matchAll(JOIN_SECRET_SHAPE)) {
      if (!isRedactedRendering(match[0])) {
        hits.push("a §9 join-secret shape");
        break;
      }
    }
  }
  return hits;
}

/**
 * The known secrets derived from one join secret: the whole string and, when it is long enough to
 * be distinctive (≥ 8 characters), the secret half after the last `.` on its own.
 *
 * @example secretsOf("T1", "brg1.t-1.abcdefgh").length // 2
 */
export function secretsOf(label: string, joinSecret: string): KnownSecret[] {
  const out: KnownSecret[] = [{ label: `join secret of ${label}`, value: joinSecret }];
  const half = joinSecret.slice(joinSecret.lastIndexOf(".") + 1);
  if (half.length >= 8 && half !== joinSecret) {
    out.push({ label: `secret half of ${label}'s join secret`, value: half });
  }
  return out;
}
