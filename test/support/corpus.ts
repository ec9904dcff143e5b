import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the BIPIA corpus lives: `../shared/corpora/bipia` beside the repository. */
export const BIPIA_DIR: string = resolve(repoRoot, "../shared/corpora/bipia");

/** One hostile string of the corpus and where it came from (file, category, index). */
export interface CorpusEntry {
  readonly source: string;
  readonly text: string;
}

/**
 * Every attack string of the BIPIA corpus (250 of them), read at test time from `../shared`.
 * Returns `[]` when the corpus is not beside the repository; callers skip with a reason then.
 */
export function loadBipia(): CorpusEntry[] {
  if (!existsSync(BIPIA_DIR)) return [];
  const entries: CorpusEntry[] = [];
  for (const file of readdirSync(BIPIA_DIR).sort()) {
    if (!file.endsWith(".json")) continue;
    const data = JSON.parse(readFileSync(join(BIPIA_DIR, file), "utf8")) as Record<
      string,
      string[]
    >;
    for (const [category, texts] of Object.entries(data)) {
      texts.forEach((text, index) => {
        entries.push({ source: `${file}:${category}:${index}`, text });
      });
    }
  }
  return entries;
}
