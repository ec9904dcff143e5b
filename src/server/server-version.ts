import { readFileSync } from "node:fs";

/**
 * This program's version: the `version` of the package's own `package.json`, read once from the
 * repository root (two folders up from both `src/server/` and `dist/server/`), so the server
 * reports exactly what was installed. `"unknown"` when the file cannot be read or has no version.
 *
 * @example serverVersion(); // "0.1.0"
 */
export function serverVersion(): string {
  cached ??= readVersion();
  return cached;
}

let cached: string | undefined;

function readVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" && /^[0-9A-Za-z.+-]{1,64}$/.test(version)
      ? version
      : "unknown";
  } catch {
    return "unknown";
  }
}
