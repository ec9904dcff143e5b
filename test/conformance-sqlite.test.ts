// The clean conformance run of test/conformance.suite.ts on the sqlite store.
import { cleanConformanceRun } from "./conformance.suite.ts";

cleanConformanceRun("sqlite", "spawned");
