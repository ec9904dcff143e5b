// The clean conformance run of test/conformance.suite.ts on the postgres store.
import { cleanConformanceRun } from "./conformance.suite.ts";

// In process: the store is the subject; the SQLite run spawns the adapter per call (the process
// boundary), and test/conformance-multi.test.ts runs PostgreSQL behind three server processes.
cleanConformanceRun("postgres", "in-process");
