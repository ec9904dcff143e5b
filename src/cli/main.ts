#!/usr/bin/env node
import { main } from "./brigade.ts";
import { exitAfterFlush, processIo } from "./cli-io.ts";

await exitAfterFlush(await main(process.argv.slice(2), processIo()));
