import { runAdapterMutant } from "../../src/adapters/http/testing/adapter-mutant-command.ts";
import { runAdapter } from "../../src/cli/adapter-command.ts";
import type { ConformanceMutant } from "../../src/conformance/mutants.ts";
import { type AdapterTransport, inProcessTransport } from "../../src/conformance/transport.ts";

/**
 * `brigade adapter http`, called in this process per conformance operation: the same entry
 * (`runAdapter`) the CLI runs, so only the cost of starting Node per call is saved.
 */
export function inProcessHttpAdapter(): AdapterTransport {
  return inProcessTransport((argv, io) => runAdapter(["http", ...argv], io));
}

/** The test-only mutant adapter entry (`runAdapterMutant`), called in this process. */
export function inProcessMutantAdapter(mutant: ConformanceMutant): AdapterTransport {
  return inProcessTransport((argv, io) =>
    runAdapterMutant(["--test-mutant", mutant, "adapter", "http", ...argv], io),
  );
}
