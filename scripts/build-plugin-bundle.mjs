#!/usr/bin/env node
// Builds plugin/dist/brigade.mjs: the Claude Code plugin's one committed, readable, dependency-free
// JavaScript file (docs/spec/claude-code.md §6.1, §6.3). Input src/cli/plugin-main.ts
// (HARNESS_COMMANDS only), bundled by rolldown into one ESM file for Node: every dynamic import
// inlined, only `node:` builtins left as imports, not minified, no source map. Deterministic: the
// same tree and the same rolldown give the same bytes, so CI can compare the committed file with a
// fresh build.
//
// Usage: node scripts/build-plugin-bundle.mjs           (writes the bundle; npm run bundle)
//        node scripts/build-plugin-bundle.mjs --check   (exit 1 when the committed file differs)
//        [--out <file>] another bundle path to write or check; [--entry <file>] another entry
//        (tests use both, e.g. to prove that a server import fails the build).
// Exit status: 0 ok, 1 the check found a difference, 2 the build failed or was refused.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { rolldown } from "rolldown";

const ROLLDOWN_VERSION = "1.2.19";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_ENTRY = "src/cli/plugin-main.ts";
const DEFAULT_OUT = "plugin/dist/brigade.mjs";

// What the plugin must never carry: native modules and the backend. A module under one of these
// folders, or any file from node_modules, fails the build.
const FORBIDDEN_FOLDERS = ["src/server/", "src/store/", "src/conformance/"];

const BANNER = [
  "// GENERATED FILE: do not edit. The Brigade Claude Code plugin's bundle of src/cli/plugin-main.ts,",
  `// built by scripts/build-plugin-bundle.mjs with rolldown ${ROLLDOWN_VERSION} (readable, not minified).`,
  "// Rebuild: npm run bundle    Check: npm run bundle -- --check    Docs: docs/45-plugin.md",
].join("\n");

class BundleRefused extends Error {}

function packageVersion() {
  const version = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).version;
  if (typeof version !== "string" || version === "") {
    throw new BundleRefused("package.json names no version");
  }
  return version;
}

/**
 * Builds the bundle in memory and returns its text. Throws BundleRefused when the module graph
 * holds a forbidden module or the output would import anything but a `node:` builtin or span more
 * than one file.
 */
export async function buildPluginBundle(entry = DEFAULT_ENTRY) {
  const require = createRequire(import.meta.url);
  const version = JSON.parse(
    readFileSync(require.resolve("rolldown/package.json"), "utf8"),
  ).version;
  if (version !== ROLLDOWN_VERSION) {
    throw new BundleRefused(`expected rolldown ${ROLLDOWN_VERSION}, found ${version}`);
  }
  const build = await rolldown({
    cwd: root,
    input: resolve(root, entry),
    platform: "node",
    external: [/^node:/],
    treeshake: true,
    // The plugin ships without package.json: its bundle carries the version (brigadeVersion).
    transform: { define: { BRIGADE_BUNDLED_VERSION: JSON.stringify(packageVersion()) } },
    logLevel: "warn",
    onLog(level, log) {
      throw new BundleRefused(`rolldown ${level}: ${log.message}`);
    },
  });
  try {
    const { output } = await build.generate({
      format: "esm",
      codeSplitting: false,
      minify: false,
      sourcemap: false,
      comments: true,
      banner: BANNER,
    });
    if (output.length !== 1 || output[0].type !== "chunk") {
      throw new BundleRefused(`expected one chunk, got ${output.length} outputs`);
    }
    const chunk = output[0];
    const problems = [];
    for (const id of chunk.moduleIds) {
      if (id.startsWith("\0")) continue; // rolldown's own runtime helpers
      const rel = relative(root, id).split(sep).join("/");
      if (rel.startsWith("node_modules/") || rel.includes("/node_modules/")) {
        problems.push(`a package from node_modules: ${rel}`);
      } else if (!rel.startsWith("src/") || FORBIDDEN_FOLDERS.some((f) => rel.startsWith(f))) {
        problems.push(`a module the plugin must not carry: ${rel}`);
      }
    }
    // A dynamic import inlined into this one file is still listed, under the chunk's own name.
    const imports = [...chunk.imports, ...chunk.dynamicImports.filter((s) => s !== chunk.fileName)];
    for (const spec of imports) {
      if (!spec.startsWith("node:"))
        problems.push(`an import that is not a node: builtin: ${spec}`);
    }
    if (problems.length > 0) throw new BundleRefused(`refused:\n  ${problems.join("\n  ")}`);
    return chunk.code.endsWith("\n") ? chunk.code : `${chunk.code}\n`;
  } finally {
    await build.close();
  }
}

async function cli() {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      out: { type: "string", default: DEFAULT_OUT },
      entry: { type: "string", default: DEFAULT_ENTRY },
    },
    strict: true,
    allowPositionals: false,
  });
  const out = resolve(root, values.out);
  const shown = relative(root, out).split(sep).join("/");
  let code;
  try {
    code = await buildPluginBundle(values.entry);
  } catch (error) {
    process.stderr.write(
      `build-plugin-bundle: ${error instanceof Error ? error.message : error}\n`,
    );
    return 2;
  }
  if (values.check) {
    const committed = existsSync(out) ? readFileSync(out, "utf8") : undefined;
    if (committed !== code) {
      process.stderr.write(
        `build-plugin-bundle: ${shown} ${committed === undefined ? "is missing" : "differs from a fresh build"}; run npm run bundle and commit it\n`,
      );
      return 1;
    }
    process.stdout.write(`${shown} is up to date (${Buffer.byteLength(code)} bytes)\n`);
    return 0;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  process.stdout.write(`wrote ${shown} (${Buffer.byteLength(code)} bytes)\n`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await cli();
}
