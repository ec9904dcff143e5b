import {
  envelopeLine,
  errorEnvelope,
  parseAdapterArgv,
  usageError,
} from "../../../protocol/index.ts";
import {
  type AdapterFactory,
  type AdapterProcessIo,
  runAsProcess,
} from "../../process-binding/index.ts";
import { HttpAdapter } from "../http-adapter.ts";
import {
  claimsForwardingFetch,
  claimsSplittingStdin,
  type SendClaims,
} from "./trusted-sender-claims.ts";

/**
 * The mutants the test adapter accepts: the keys of `CONFORMANCE_MUTANTS`
 * (src/conformance/mutants.ts; repeated because the adapters layer may not import the conformance
 * layer; test/conformance-mutants.test.ts checks the lists are equal). Only `trusted_sender`
 * changes the adapter; the others run it unchanged (their fault is in the server).
 *
 * @example ADAPTER_MUTANTS.includes("trusted_sender") // true
 */
export const ADAPTER_MUTANTS = [
  "no_ack_persistence",
  "team_leak",
  "trusted_sender",
  "caps_swapped",
  "weak_admin",
  "state_leak",
  "live_stale",
  "removed_reachable",
  "creator_leaves",
  "eager_transfer",
  "token_kept",
  "invitation_reuse",
  "blob_leak",
  "person_unmarked",
] as const;

/** One of {@link ADAPTER_MUTANTS}. */
export type AdapterMutant = (typeof ADAPTER_MUTANTS)[number];

/**
 * The test-only adapter entry: argv `--test-mutant <name> adapter http <group> <verb> …` runs
 * `brigade adapter http <group> <verb> …` through the same `runAsProcess` as
 * src/cli/adapter-command.ts: same envelopes, exit statuses, SIGTERM handling and exit grace; no
 * terminal prompt (the suite never gives a terminal). With
 * `trusted_sender`, `message send` skips the forbidden-member refusal of
 * docs/spec/protocol.md §4.7: those members are taken off the stdin document before the binding
 * validates it and added back to the request body the adapter POSTs. A malformed prefix or an
 * unknown mutant is `usage` (exit 2, one envelope on stdout).
 *
 * @example await runAdapterMutant(["--test-mutant", "trusted_sender", "adapter", "http", "message", "send"], io)
 */
export async function runAdapterMutant(argv: string[], io: AdapterProcessIo): Promise<number> {
  const [flag, mutant, adapter, name, ...rest] = argv;
  if (
    flag !== "--test-mutant" ||
    !(ADAPTER_MUTANTS as readonly (string | undefined)[]).includes(mutant) ||
    adapter !== "adapter" ||
    name !== "http"
  ) {
    io.stdout(envelopeLine(errorEnvelope(usageError("unknown_command"))));
    return 2;
  }
  const claims: SendClaims = { members: {} };
  const parsed = parseAdapterArgv(rest);
  const forwardClaims =
    mutant === "trusted_sender" && parsed.ok && parsed.command.name === "message send";
  const factory: AdapterFactory = ({ profile, env, logger }) => {
    const http = new HttpAdapter({
      env,
      profile,
      logger: logger.child("http"),
      ...(forwardClaims ? { fetch: claimsForwardingFetch(claims) } : {}),
    });
    return { adapter: http, checkLocalReady: (command) => http.checkLocalReady(command) };
  };
  return runAsProcess(rest, io, factory, {
    comp: "adapter-http",
    ...(forwardClaims ? { stdin: claimsSplittingStdin(io.stdin, claims) } : {}),
  });
}
