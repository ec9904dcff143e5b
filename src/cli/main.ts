#!/usr/bin/env node
import { main } from "./brigade.ts";
import { processIo } from "./cli-io.ts";

process.exitCode = await main(process.argv.slice(2), processIo());
