#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";
import { main } from "./brigade.ts";
import { exitAfterFlush, processIo } from "./cli-io.ts";

// Node's fetch parses HTTP with a WebAssembly build of llhttp, which V8 recompiles in the background
// with its optimising tier; a process cannot exit before that compile ends (about 150 ms after a
// one-shot command's last request, measured here). The baseline compiler serves our small answers.
setFlagsFromString("--liftoff-only");

await exitAfterFlush(await main(process.argv.slice(2), processIo()));
