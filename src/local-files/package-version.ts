import { readFileSync } from "node:fs";

// Replaced by the version string when scripts/build-plugin-bundle.mjs bundles the plugin (rolldown
// `define`): the plugin ships without package.json, so its copy must carry the version inside it.
declare const BRIGADE_BUNDLED_VERSION: string | undefined;

let cached: string | undefined;

/** What a release version looks like; anything else is reported as `unknown` (people and models read it). */
const VERSION_SHAPE = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

/**
 * Brigade's version: `package.json`'s `version`, the one every part reports (`brigade --version`,
 * the plugin's bundle, `brigade serve`'s start-up line, `brigade doctor`). The plugin's bundle has
 * it embedded at bundle time; the `tsc` build and the sources read the repository's `package.json`
 * two folders above this module, once. `"unknown"` when that file cannot be read or names no
 * version of the usual shape (a broken install). `brigade serve` reports the same. Never throws.
 *
 * @example brigadeVersion() // "0.1.0"
 */
export function brigadeVersion(): string {
  if (typeof BRIGADE_BUNDLED_VERSION === "string") return BRIGADE_BUNDLED_VERSION;
  if (cached === undefined) cached = readPackageVersion();
  return cached;
}

function readPackageVersion(): string {
  try {
    const parsed: unknown = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    );
    if (typeof parsed === "object" && parsed !== null && "version" in parsed) {
      const version = parsed.version;
      if (typeof version === "string" && VERSION_SHAPE.test(version)) return version;
    }
    return "unknown";
  } catch {
    return "unknown";
  }
}
