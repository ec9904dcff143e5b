import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

test("inbound/ and pacing/ are pure: no node: module, no value import from protocol or state", () => {
  const offenders: string[] = [];
  for (const folder of [here, join(here, "..", "pacing")]) {
    for (const name of readdirSync(folder)) {
      if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
      const text = readFileSync(join(folder, name), "utf8");
      if (/from\s*["']node:/.test(text)) offenders.push(`${name}: node module`);
      if (/import\s*\{[^}]*\}\s*from\s*["'][./]*\/state\//.test(text))
        offenders.push(`${name}: state`);
      for (const m of text.matchAll(/import\s+(type\s+)?\{[^}]*\}\s*from\s*["']([^"']+)["']/g)) {
        if (m[2]?.includes("/protocol/") && m[1] === undefined) offenders.push(`${name}: ${m[2]}`);
      }
    }
  }
  expect(offenders).toEqual([]);
});
