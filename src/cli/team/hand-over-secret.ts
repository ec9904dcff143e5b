import { writeJoinSecretFile } from "../../harness/binding/index.ts";
import type { CliIo } from "../cli-io.ts";
import { say } from "./team-report.ts";

/** A join secret the server just issued, and where it should go. */
export interface NewJoinSecret {
  /** The subcommand that got it (`create`, `rotate-secret`). */
  readonly sub: string;
  /** The join secret itself: its only copy. */
  readonly secret: string;
  /** The team's server, written beside the secret. */
  readonly server: string;
  /** The `--secret-file` (absolute), when given. */
  readonly path: string | undefined;
  /** How the warning names it: `the join secret`, `the new join secret`. */
  readonly noun: string;
}

/**
 * Hands a new join secret to the person: into the `--secret-file` (`writeJoinSecretFile`: 0600,
 * never replacing anything) when one is given and can be written, else shown once on stdout with
 * a warning on stderr — the secret exists nowhere else, so it must reach the person whatever
 * fails. True when it went to the file (and was not printed).
 *
 * @example const inFile = handOverJoinSecret(io, { sub: "create", secret, server, path, noun: "the join secret" });
 */
export function handOverJoinSecret(io: CliIo, secret: NewJoinSecret): boolean {
  if (secret.path !== undefined) {
    if (writeJoinSecretFile(secret.path, secret.secret, secret.server).ok) return true;
    say(io, secret.sub, "could not write the --secret-file");
  }
  say(
    io,
    secret.sub,
    `${secret.noun} is shown once, below on stdout: keep it private (anyone holding it can join the team)`,
  );
  io.stdout(`Join secret (shown once): ${secret.secret}\n`);
  return false;
}
