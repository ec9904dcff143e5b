// The clean conformance run of test/conformance.suite.ts on the postgres store.
import { cleanConformanceRun } from "./conformance.suite.ts";

cleanConformanceRun("postgres");
