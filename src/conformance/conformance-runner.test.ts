import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { type ConformanceOptions, parseConformanceArgs, parseDuration } from "./args.ts";
import { ALL_CASES } from "./cases/index.ts";
import { runConformanceCli } from "./cli.ts";
import { looksLikeStackTrace, SuiteContext } from "./context.ts";
import { checkEnvelopeStdout, checkNdjsonStdout } from "./envelope-check.ts";
import { scanTree } from "./file-scan.ts";
import { formatResultLine } from "./report.ts";
import { selectCases } from "./runner.ts";
import { scanForSecrets, secretsOf } from "./secret-scan.ts";
import { parseSeed, shuffleWithSeed, splitmix64 } from "./shuffle.ts";

const scratch = mkdtempSync(join(tmpdir(), "conformance-unit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a fake adapter (a Node script run by this Node) and returns its command array. */
function fakeAdapter(name: string, body: string): string[] {
  const path = join(scratch, `${name}.mjs`);
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return [process.execPath, path];
}

function options(adapter: string[], extra: string[] = []): ConformanceOptions {
  const parsed = parseConformanceArgs(["--adapter", JSON.stringify(adapter), ...extra]);
  if (!parsed.ok || parsed.help) throw new Error("bad test options");
  return parsed.options;
}

function context(adapter: string[]): SuiteContext {
  const dir = mkdtempSync(join(scratch, "run-"));
  return new SuiteContext(options(adapter, ["--timeout", "5s"]), dir, () => {});
}

const OK = '{"ok":true,"protocol_version":"1","result":{}}\n';

describe("argument parsing", () => {
  test("every flag of docs/spec/protocol.md §12.1, fixed args after --", () => {
    const parsed = parseConformanceArgs([
      "--adapter",
      "/opt/adapter",
      "--env",
      "K=V=W",
      "--json",
      "--keep-temp",
      "--only",
      "C-01,C-03b",
      "--skip=C-14",
      "--rebind",
      '["/bin/rebind","x"]',
      "--setup",
      "/bin/setup",
      "--shared-env",
      "SHARED_DIR",
      "--shuffle",
      "0x2a",
      "--slow",
      "--tags",
      "core,cap:team.roster",
      "--timeout",
      "1500ms",
      "-v",
      "--",
      "adapter",
      "http",
      "--json",
    ]);
    expect(parsed).toEqual({
      ok: true,
      help: false,
      options: {
        adapter: ["/opt/adapter", "adapter", "http", "--json"],
        env: [["K", "V=W"]],
        json: true,
        keepTemp: true,
        only: ["C-01", "C-03b"],
        skip: ["C-14"],
        rebind: ["/bin/rebind", "x"],
        setup: ["/bin/setup"],
        sharedEnv: "SHARED_DIR",
        shuffle: 42n,
        slow: true,
        tags: ["core", "cap:team.roster"],
        timeoutMs: 1500,
        verbose: true,
      },
    });
  });

  test.each([
    [[], "--adapter is required"],
    [["--adapter", "/a", "--frob"], "unknown flag"],
    [["--adapter", "/a", "--env", "novalue"], "--env needs K=V"],
    [["--adapter", "/a", "--only", "1,2"], "--only needs case ids like C-01"],
    [["--adapter", "/a", "--shuffle", "-1"], "--shuffle needs a u64 seed"],
    [["--adapter", "/a", "--timeout"], "--timeout needs a value"],
    [["--adapter", "[1]"], "--adapter is not a command"],
    [["--adapter", "/a", "--json=1"], "--json takes no value"],
  ])("refuses %j", (argv, reason) => {
    expect(parseConformanceArgs(argv)).toEqual({ ok: false, reason });
  });

  test("a usage error never echoes the argument", async () => {
    let err = "";
    const code = await runConformanceCli(["--adapter", "/a", "--frob-brg1.t.secretvalue"], {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
    });
    expect(code).toBe(2);
    expect(err).not.toContain("secretvalue");
  });

  test("durations", () => {
    expect([
      parseDuration("20s"),
      parseDuration("2m"),
      parseDuration("7"),
      parseDuration("0s"),
    ]).toEqual([20_000, 120_000, 7000, undefined]);
  });
});

describe("case table and selection", () => {
  test("84 cases, unique ids, no C-09, C-14 and C-54 are slow", () => {
    const ids = ALL_CASES.map((c) => c.id);
    expect(ids).toHaveLength(84);
    expect(new Set(ids).size).toBe(84);
    expect(ids).not.toContain("C-09");
    for (const extra of [
      "C-03b",
      "C-19b",
      "C-29b",
      "C-01",
      "C-47",
      "C-48",
      "C-50",
      "C-51",
      "C-52",
      "C-53",
      "C-54",
      "C-55",
      "C-56",
      "C-57",
      "C-58",
      "C-60",
      "C-66",
      "C-67",
      "C-80",
      "C-87",
      "C-88",
      "C-89",
      "C-95",
    ])
      expect(ids).toContain(extra);
    expect(ALL_CASES.filter((c) => c.tags.includes("slow")).map((c) => c.id)).toEqual([
      "C-14",
      "C-54",
    ]);
  });

  test("slow cases need --slow; unknown ids and empty selections are refused", () => {
    const base = { only: undefined, skip: [], tags: [], slow: false };
    const plain = selectCases(ALL_CASES, base);
    expect(plain.ok && plain.cases.map((c) => c.id)).not.toContain("C-14");
    const slow = selectCases(ALL_CASES, { ...base, slow: true });
    expect(slow.ok && slow.cases).toHaveLength(84);
    expect(selectCases(ALL_CASES, { ...base, only: ["C-99"] })).toEqual({
      ok: false,
      reason: "unknown case id",
    });
    expect(selectCases(ALL_CASES, { ...base, only: ["C-01"], skip: ["C-01"] })).toEqual({
      ok: false,
      reason: "no case selected",
    });
    const roster = selectCases(ALL_CASES, { ...base, tags: ["cap:team.roster"] });
    expect(roster.ok && roster.cases.map((c) => c.id)).toEqual(["C-43", "C-45", "C-86", "C-87"]);
    const admin = selectCases(ALL_CASES, { ...base, tags: ["cap:team.admin"] });
    expect(admin.ok && admin.cases.map((c) => c.id)).toEqual([
      "C-48",
      "C-49",
      "C-50",
      "C-55",
      "C-56",
      "C-57",
      "C-84",
      "C-85",
      "C-95",
    ]);
    const invitations = selectCases(ALL_CASES, { ...base, tags: ["cap:team.invitations"] });
    expect(invitations.ok && invitations.cases.map((c) => c.id)).toEqual([
      "C-80",
      "C-81",
      "C-82",
      "C-83",
      "C-84",
      "C-85",
      "C-86",
    ]);
    const rotation = selectCases(ALL_CASES, { ...base, tags: ["cap:profile.rotate_token"] });
    expect(rotation.ok && rotation.cases.map((c) => c.id)).toEqual(["C-58"]);
    const states = selectCases(ALL_CASES, { ...base, tags: ["cap:message.state"] });
    expect(states.ok && states.cases.map((c) => c.id)).toEqual(["C-51", "C-52", "C-67"]);
    const adopt = selectCases(ALL_CASES, { ...base, tags: ["cap:message.adopt"] });
    expect(adopt.ok && adopt.cases.map((c) => c.id)).toEqual(["C-52"]);
    const live = selectCases(ALL_CASES, { ...base, tags: ["cap:session.live_delivery"] });
    expect(live.ok && live.cases.map((c) => c.id)).toEqual(["C-53", "C-88", "C-89"]);
    const liveSlow = selectCases(ALL_CASES, {
      ...base,
      slow: true,
      tags: ["cap:session.live_delivery"],
    });
    expect(liveSlow.ok && liveSlow.cases.map((c) => c.id)).toEqual([
      "C-53",
      "C-54",
      "C-88",
      "C-89",
    ]);
    const files = selectCases(ALL_CASES, { ...base, tags: ["cap:message.attachments"] });
    expect(files.ok && files.cases.map((c) => c.id)).toEqual([
      "C-60",
      "C-61",
      "C-62",
      "C-63",
      "C-64",
      "C-65",
      "C-66",
      "C-67",
    ]);
  });
});

describe("shuffle", () => {
  test("splitmix64 matches the reference sequence for seed 0", () => {
    const next = splitmix64(0n);
    expect([next(), next(), next()]).toEqual([
      0xe220a8397b1dcdafn,
      0x6e789e6aa1b965f4n,
      0x06c45d188009454fn,
    ]);
  });

  test("the same seed gives the same permutation; another seed another one", () => {
    const ids = ALL_CASES.map((c) => c.id);
    const one = shuffleWithSeed(ids, 12345n);
    expect(shuffleWithSeed(ids, 12345n)).toEqual(one);
    expect([...one].sort()).toEqual([...ids].sort());
    expect(one).not.toEqual(ids);
    expect(shuffleWithSeed(ids, 12346n)).not.toEqual(one);
  });

  test("seeds: decimal and hex u64 only", () => {
    expect([
      parseSeed("18446744073709551615"),
      parseSeed("18446744073709551616"),
      parseSeed("x"),
    ]).toEqual([18446744073709551615n, undefined, undefined]);
  });
});

describe("envelope and NDJSON global checks", () => {
  test("a valid ok and error envelope pass", () => {
    expect(checkEnvelopeStdout(OK, 0).violations).toEqual([]);
    const err =
      '{"ok":false,"protocol_version":"1","error":{"code":"not_found","message":"m","retryable":false}}\n';
    expect(checkEnvelopeStdout(err, 6).violations).toEqual([]);
  });

  test.each([
    [OK + OK, 0, "stdout is not one JSON document"],
    [OK.trimEnd(), 0, "stdout is not one envelope followed by \\n"],
    [`${OK}\n`, 0, "stdout is not one envelope followed by \\n"],
    [
      '{"ok":false,"protocol_version":"1","error":{"code":"usage","message":"m"}}\n',
      2,
      "error.retryable missing",
    ],
    [
      '{"ok":false,"protocol_version":"1","error":{"code":"usage","message":"m","retryable":false}}\n',
      3,
      "exit 3 does not match code usage (2)",
    ],
    [
      '{"ok":false,"protocol_version":"1","error":{"code":"teapot","message":"m","retryable":false}}\n',
      1,
      "error.code is not one of the twelve codes",
    ],
    ['{"ok":true,"protocol_version":"2","result":{}}\n', 0, 'protocol_version is not "1"'],
    [
      '{"ok":false,"protocol_version":"1","error":{"code":"usage","message":"m","retryable":false,"details":{"n":1}}}\n',
      2,
      "error.details has a non-string value",
    ],
  ])("catches %j", (stdout, exit, violation) => {
    expect(checkEnvelopeStdout(stdout, exit).violations).toContain(violation);
  });

  test("NDJSON: ready first and once, no blank lines, error events carry retryable", () => {
    const ready = '{"event":"ready","protocol_version":"1","session_id":"s","mode":"push"}\n';
    expect(checkNdjsonStdout(`${ready}{"event":"status","state":"live"}\n`).violations).toEqual([]);
    expect(checkNdjsonStdout(`${ready}\n`).violations).toContain("watch line 2 is blank");
    expect(checkNdjsonStdout(`{"event":"status","state":"x"}\n${ready}`).violations).toContain(
      "ready is not the first event",
    );
    expect(checkNdjsonStdout(`${ready}${ready}`).violations).toContain("more than one ready event");
    expect(
      checkNdjsonStdout(`${ready}{"event":"error","error":{"code":"not_found","message":"m"}}\n`)
        .violations,
    ).toContain("error.retryable missing");
    expect(checkNdjsonStdout(`${ready}not json\n`).violations).toContain(
      "watch line 2 is not JSON",
    );
  });
});

describe("secret scanner", () => {
  const known = secretsOf("T1", "brg1.t-1.Zq8sKw0pXy");

  test("finds a known secret, its secret half alone, and the docs/spec/protocol.md §9 shape; names never the value", () => {
    expect(scanForSecrets("log: brg1.t-1.Zq8sKw0pXy", known)).toEqual([
      "join secret of T1",
      "secret half of T1's join secret",
      "a §9 join-secret shape",
    ]);
    expect(scanForSecrets("token Zq8sKw0pXy", known)).toEqual(["secret half of T1's join secret"]);
    expect(scanForSecrets("brg1.team.with.dots.abc", [])).toEqual(["a §9 join-secret shape"]);
  });

  test("the docs/spec/protocol.md §9 redacted rendering and clean text pass", () => {
    expect(scanForSecrets("joining brg1.t-1.[redacted]", known)).toEqual([]);
    expect(scanForSecrets("nothing here brg1 brg1.x", known)).toEqual([]);
  });

  test("the run-directory scan names the file", () => {
    const dir = mkdtempSync(join(scratch, "tree-"));
    writeFileSync(join(dir, "clean.txt"), "hello");
    writeFileSync(join(dir, "leak.log"), "x brg1.t-1.Zq8sKw0pXy y");
    expect(scanTree(dir, known).sort()).toEqual([
      "leak.log: a §9 join-secret shape",
      "leak.log: join secret of T1",
      "leak.log: secret half of T1's join secret",
    ]);
  });

  test("stack trace detection", () => {
    expect(looksLikeStackTrace("Error: x\n    at run (/a/b.js:1:2)")).toBe(true);
    expect(looksLikeStackTrace('{"level":"error","event":"x"}')).toBe(false);
  });
});

describe("global checks on real spawns (positive controls)", () => {
  test("a well-behaved call passes; the child env is built from scratch", async () => {
    const ctx = context(
      fakeAdapter(
        "env-echo",
        `process.stdout.write(JSON.stringify({ok:true,protocol_version:"1",result:{keys:Object.keys(process.env).sort(),level:process.env.BRIGADE_LOG_LEVEL}})+"\\n");`,
      ),
    );
    process.env.CONFORMANCE_SHOULD_NOT_LEAK = "1";
    const call = await ctx.call(ctx.principal("A"), ["describe"]);
    delete process.env.CONFORMANCE_SHOULD_NOT_LEAK;
    expect(ctx.log.failures).toEqual([]);
    const result = call.envelope?.result as { keys: string[]; level: string };
    expect(result.level).toBe("debug");
    expect(result.keys).toEqual([
      "BRIGADE_CONFIG_DIR",
      "BRIGADE_LOG_LEVEL",
      "BRIGADE_PROFILE",
      "BRIGADE_STATE_DIR",
      "HOME",
      "PATH",
      "TMPDIR",
    ]);
  });

  test("a secret leaked on stderr is caught", async () => {
    const ctx = context(
      fakeAdapter(
        "leak",
        `process.stderr.write("debug brg1.t-9.SuperSecret99\\n"); process.stdout.write(${JSON.stringify(OK)});`,
      ),
    );
    ctx.secrets.push(...secretsOf("T9", "brg1.t-9.SuperSecret99"));
    await ctx.call(ctx.principal("A"), ["describe"]);
    expect(ctx.log.failures).toEqual([
      "A: describe: join secret of T9 on stderr",
      "A: describe: secret half of T9's join secret on stderr",
      "A: describe: a §9 join-secret shape on stderr",
    ]);
    expect(ctx.log.failures.join(" ")).not.toContain("SuperSecret99");
  });

  test("two envelopes on stdout are caught", async () => {
    const ctx = context(fakeAdapter("two", `process.stdout.write(${JSON.stringify(OK + OK)});`));
    await ctx.call(ctx.principal("A"), ["describe"]);
    expect(ctx.log.failures).toEqual(["A: describe: stdout is not one JSON document"]);
  });

  test("exit 127 is caught", async () => {
    const ctx = context(
      fakeAdapter(
        "exit127",
        `process.stdout.write(${JSON.stringify(OK)}); process.exitCode = 127;`,
      ),
    );
    await ctx.call(ctx.principal("A"), ["describe"]);
    expect(ctx.log.failures).toEqual(["A: describe: exit status 127 outside 0..12"]);
  });

  test("a no-input command that reads a held-open stdin times out and is caught", async () => {
    const ctx = context(
      fakeAdapter(
        "reads-stdin",
        `let d="";process.stdin.on("data",c=>d+=c).on("end",()=>process.stdout.write(${JSON.stringify(OK)}));`,
      ),
    );
    await ctx.call(ctx.principal("A"), ["describe"], { stdin: "held-open", timeoutMs: 500 });
    expect(ctx.log.failures).toEqual(["A: describe: timed out"]);
  });

  test("a missing executable is reported, not thrown", async () => {
    const ctx = context([join(scratch, "no-such-adapter")]);
    await ctx.call(ctx.principal("A"), ["describe"]);
    expect(ctx.log.failures).toEqual(["A: describe: adapter could not be started (ENOENT)"]);
  });
});

describe("runner", () => {
  test("an adapter whose describe fails is a launcher error (exit 3)", async () => {
    const adapter = fakeAdapter(
      "broken",
      `process.stdout.write('{"ok":false,"protocol_version":"1","error":{"code":"internal","message":"m","retryable":false}}\\n'); process.exitCode = 1;`,
    );
    let err = "";
    const code = await runConformanceCli(["--adapter", JSON.stringify(adapter), "--only", "C-01"], {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
    });
    expect(code).toBe(3);
    expect(err).toContain("fixture");
  });

  test("human line format", () => {
    expect(
      formatResultLine({
        id: "C-30",
        rule: "ack rules",
        status: "fail",
        duration_ms: 310,
        reason: "x; y",
      }),
    ).toBe("C-30   FAIL  0.31s  ack rules — x; y");
    expect(
      formatResultLine({
        id: "C-03b",
        rule: "bound",
        status: "pass",
        duration_ms: 1200,
        reason: "",
      }),
    ).toBe("C-03b  PASS  1.20s  bound");
  });
});
