#!/usr/bin/env node
// Test-only entry (conformance positive controls): `node dist-test/server/testing/serve-mutant.js
// --data <file> --host 127.0.0.1 --port 0` with BRIGADE_TEST_MUTANT set; see serve-mutant-command.ts.
import { runServeMutant } from "./serve-mutant-command.ts";

process.exitCode = await runServeMutant(process.argv.slice(2), {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  env: process.env,
});
