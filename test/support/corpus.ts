import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the vendored BIPIA corpus lives (licence and source note beside it). */
export const BIPIA_DIR: string = join(repoRoot, "test/testdata/corpora/bipia");

/** The corpus files, named so that a deleted file fails the tests instead of shrinking the corpus. */
const BIPIA_FILES = [
  "code_attack_test.json",
  "code_attack_train.json",
  "text_attack_test.json",
  "text_attack_train.json",
] as const;

/** How many attack strings the four files hold together. */
export const BIPIA_SIZE = 250;

/** One hostile string of the corpus and where it came from (file, category, index). */
export interface CorpusEntry {
  readonly source: string;
  readonly text: string;
}

/**
 * Every attack string of the vendored BIPIA corpus, in file, category and list order.
 * Throws when a file is missing, is not a JSON object of string lists, or the total is not
 * {@link BIPIA_SIZE}: a test that depends on the corpus must fail, never run on less of it.
 */
export function loadBipia(): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (const file of BIPIA_FILES) {
    const data: unknown = JSON.parse(readFileSync(join(BIPIA_DIR, file), "utf8"));
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      throw new Error(`BIPIA corpus file ${file} is not a JSON object`);
    }
    for (const [category, texts] of Object.entries(data)) {
      if (!Array.isArray(texts) || !texts.every((text) => typeof text === "string")) {
        throw new Error(`BIPIA corpus file ${file}: category ${category} is not a list of strings`);
      }
      texts.forEach((text: string, index) => {
        entries.push({ source: `${file}:${category}:${index}`, text });
      });
    }
  }
  if (entries.length !== BIPIA_SIZE) {
    throw new Error(`BIPIA corpus holds ${entries.length} strings, expected ${BIPIA_SIZE}`);
  }
  return entries;
}
