// The suites of test/real-opencode.suite.ts on the registry's newest OpenCode (docs/49-opencode.md).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { openCodeDoorSuite, openCodePluginSuite } from "./real-opencode.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import {
  latestOpenCodeVersion,
  PINNED_OPENCODE_VERSION,
} from "./support/real-opencode/opencode-executable.ts";

await onNewest(
  "OpenCode",
  PINNED_OPENCODE_VERSION,
  latestOpenCodeVersion,
  "test/real-opencode-pinned.test.ts",
  (choice) => {
    openCodeDoorSuite(choice);
    openCodePluginSuite(choice);
  },
);
