import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { type KnownSecret, scanForSecrets } from "./secret-scan.ts";

/** Files larger than this are scanned only in their first bytes (the run dir holds small files). */
const MAX_SCAN_BYTES = 16 * 1024 * 1024;

/**
 * Scans every regular file under `root` (recursively, symlinks not followed) for known secrets and
 * the docs/spec/protocol.md §9 shape. Returns one line per hit: `<relative path>: <what>` (never
 * the secret itself).
 *
 * @example scanTree("/tmp/run", secrets) // ["principals/A/state/log.txt: join secret of T1"]
 */
export function scanTree(root: string, secrets: readonly KnownSecret[]): string[] {
  const hits: string[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let info: ReturnType<typeof statSync>;
      try {
        info = statSync(path, { throwIfNoEntry: false }) ?? statSync(path);
      } catch {
        continue;
      }
      if (info.isDirectory()) walk(path);
      else if (info.isFile()) {
        let text: string;
        try {
          text = readFileSync(path).subarray(0, MAX_SCAN_BYTES).toString("latin1");
        } catch {
          continue;
        }
        const utf8 = Buffer.from(text, "latin1").toString("utf8");
        for (const hit of new Set([
          ...scanForSecrets(text, secrets),
          ...scanForSecrets(utf8, secrets),
        ])) {
          hits.push(`${relative(root, path)}: ${hit}`);
        }
      }
    }
  };
  walk(root);
  return hits;
}
