// The suites of test/real-opencode.suite.ts on the pinned OpenCode (docs/49-opencode.md).

import { openCodeDoorSuite, openCodePluginSuite } from "./real-opencode.suite.ts";
import { PINNED_OPENCODE_VERSION } from "./support/real-opencode/opencode-executable.ts";

const pinned = { which: "pinned", version: async () => PINNED_OPENCODE_VERSION } as const;
openCodeDoorSuite(pinned);
openCodePluginSuite(pinned);
