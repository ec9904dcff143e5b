#!/usr/bin/env node
// Test-only entry (conformance positive controls): `node dist-test/adapters/http/testing/adapter-mutant.js
// --test-mutant <name> adapter http <group> <verb> …`; see adapter-mutant-command.ts.
import { runAdapterMutant } from "./adapter-mutant-command.ts";

process.exitCode = await runAdapterMutant(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  env: process.env,
});
