import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Every non-test TypeScript source file below `dir`. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "testdata") out.push(...sources(path));
    } else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) {
      out.push(path);
    }
  }
  return out;
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) found.push(match[1] as string);
  }
  return found;
}

/** The `src/` layer a path belongs to (`formats`, `protocol`, …). */
function layerOf(path: string): string {
  return relative(src, path).split(/[\\/]/)[0] as string;
}

/** Layers each layer may import from (besides itself). Imports point down only. */
const allowed: Record<string, readonly string[]> = {
  formats: [],
  "local-files": [],
  protocol: ["formats"],
  service: ["formats", "protocol"],
  store: ["formats", "protocol", "service"],
  server: ["formats", "protocol", "local-files", "service", "store"],
  adapters: ["formats", "protocol", "local-files"],
  conformance: ["formats", "protocol"],
  harness: ["formats", "protocol", "local-files", "adapters"],
  cli: [
    "formats",
    "protocol",
    "local-files",
    "service",
    "store",
    "server",
    "adapters",
    "conformance",
    "harness",
  ],
};

describe("layering", () => {
  const files = sources(src);

  test("src/formats imports nothing outside itself and no node: module", () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "formats")) {
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        const inside = spec.startsWith(".") && layerOf(resolve(dirname(file), spec)) === "formats";
        if (!inside) offenders.push(`${relative(src, file)} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  test("src/local-files imports only node: modules and itself", () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "local-files")) {
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        const inside =
          spec.startsWith(".") && layerOf(resolve(dirname(file), spec)) === "local-files";
        if (!inside && !spec.startsWith("node:"))
          offenders.push(`${relative(src, file)} -> ${spec}`);
      }
    }
    expect(files.some((f) => layerOf(f) === "local-files")).toBe(true);
    expect(offenders).toEqual([]);
  });

  test("src/harness/claude-code (what the host does) imports no other harness folder", () => {
    const home = join(src, "harness", "claude-code");
    const offenders: string[] = [];
    for (const file of files.filter((f) => f.startsWith(home))) {
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        const target = resolve(dirname(file), spec);
        if (spec.startsWith(".") && layerOf(target) === "harness" && !target.startsWith(home)) {
          offenders.push(`${relative(src, file)} -> ${spec}`);
        }
      }
    }
    expect(files.some((f) => f.startsWith(home))).toBe(true);
    expect(offenders).toEqual([]);
  });

  test("the client-free core and the shared harness import no client folder; a client folder no other client's", () => {
    const clients = ["gemini", "codex", "qwen", "opencode"].map((name) =>
      join(src, "harness", name),
    );
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "harness")) {
      const own = clients.find((client) => file.startsWith(`${client}/`));
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        if (!spec.startsWith(".")) continue;
        const target = resolve(dirname(file), spec);
        const client = clients.find((c) => target === c || target.startsWith(`${c}/`));
        // host-clients.ts is the one list of clients: it may name each client's folder.
        const list = file === join(src, "harness", "host-clients.ts");
        if (client !== undefined && client !== own && !list) {
          offenders.push(`${relative(src, file)} -> ${spec}`);
        }
      }
    }
    expect(files.some((f) => f.startsWith(join(src, "harness", "host-session")))).toBe(true);
    expect(offenders).toEqual([]);
  });

  test("every layer imports only the layers below it", () => {
    const offenders: string[] = [];
    for (const file of files) {
      const layer = layerOf(file);
      const permitted = allowed[layer];
      if (permitted === undefined) {
        offenders.push(`${relative(src, file)}: unknown layer ${layer}`);
        continue;
      }
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        if (!spec.startsWith(".")) continue;
        const target = layerOf(resolve(dirname(file), spec));
        if (target !== layer && !permitted.includes(target)) {
          offenders.push(`${relative(src, file)} -> ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  test("the import scanner sees every import form (positive control)", () => {
    const text = [
      'import { a } from "./a.ts";',
      'import type {\n  B,\n} from "../protocol/b.ts";',
      'export { c } from "node:fs";',
      'import "./side-effect.ts";',
      'const d = await import("../store/d.ts");',
    ].join("\n");
    expect(specifiers(text).sort()).toEqual(
      ["../protocol/b.ts", "../store/d.ts", "./a.ts", "./side-effect.ts", "node:fs"].sort(),
    );
  });
});
