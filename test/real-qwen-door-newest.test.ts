// The suite of test/real-qwen-door.suite.ts on the registry's newest Qwen Code (docs/49-qwen.md).
// When the newest is the pinned version, the pinned file runs these cases (test/support/newest-or-pinned.ts).
import { qwenDoorSuite, qwenPullSuite } from "./real-qwen-door.suite.ts";
import { onNewest } from "./support/newest-or-pinned.ts";
import { latestQwenVersion, PINNED_QWEN_VERSION } from "./support/real-qwen/qwen-executable.ts";

await onNewest(
  "Qwen Code",
  PINNED_QWEN_VERSION,
  latestQwenVersion,
  "test/real-qwen-door-pinned.test.ts",
  (choice) => {
    qwenDoorSuite(choice);
    qwenPullSuite(choice);
  },
);
