/**
 * How the harness reaches its team: the adapter config dir rules and the in-process http adapter
 * bound to a session's profile.
 */

export { DispositionReporter, REPORTED_MEMORY } from "./disposition-reporter.ts";
export {
  type HarnessAdapterTarget,
  type HarnessConfigEnv,
  type HarnessConfigRule,
  harnessConfigDir,
  harnessConfigLocation,
  openHarnessAdapter,
} from "./harness-adapter.ts";
