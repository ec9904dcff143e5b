import { CONFORMANCE_USAGE, parseConformanceArgs } from "./args.ts";
import { formatResultLine } from "./report.ts";
import { runSuite } from "./runner.ts";

/** What `brigade conformance` writes to; structurally a subset of the CLI's `CliIo`. */
export interface ConformanceIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * `brigade conformance [flags] --adapter <cmd> [-- <fixed args>…]` (docs/spec/protocol.md §12.1).
 * Exit 0 all selected cases passed (skips allowed), 1 a case failed, 2 usage (bad flag, unknown
 * case id, empty selection), 3 launcher error (the adapter or the fixture could not be set up).
 * Human lines go to stdout (`C-30  FAIL  0.31s  <rule> — <reasons>`); `--json` prints the report.
 *
 * @example process.exitCode = await runConformanceCli(["--adapter", "/usr/local/bin/my-adapter"], io)
 */
export async function runConformanceCli(
  argv: readonly string[],
  io: ConformanceIo,
): Promise<number> {
  const parsed = parseConformanceArgs(argv);
  if (!parsed.ok) {
    io.stderr(`brigade conformance: ${parsed.reason}\n${CONFORMANCE_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(CONFORMANCE_USAGE);
    return 0;
  }
  const options = parsed.options;
  const outcome = await runSuite(options, {
    verbose: (line) => {
      if (options.verbose) io.stderr(`${line}\n`);
    },
    caseDone: (result) => {
      if (!options.json) io.stdout(`${formatResultLine(result)}\n`);
    },
  });
  if (!("report" in outcome)) {
    io.stderr(`brigade conformance: ${outcome.error}\n`);
    return outcome.exitCode;
  }
  const { report } = outcome;
  if (options.json) io.stdout(`${JSON.stringify(report)}\n`);
  else {
    const s = report.summary;
    io.stdout(
      `${s.pass} passed, ${s.fail} failed, ${s.skip} skipped in ${(report.duration_ms / 1000).toFixed(1)}s\n`,
    );
  }
  if (options.keepTemp) io.stderr(`run directory kept: ${outcome.runDir}\n`);
  return outcome.exitCode;
}
