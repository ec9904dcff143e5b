// The suites of test/real-opencode.suite.ts on the registry's newest OpenCode (docs/49-opencode.md).

import { openCodeDoorSuite, openCodePluginSuite } from "./real-opencode.suite.ts";
import { latestOpenCodeVersion } from "./support/real-opencode/opencode-executable.ts";

const newest = { which: "newest", version: latestOpenCodeVersion } as const;
openCodeDoorSuite(newest);
openCodePluginSuite(newest);
