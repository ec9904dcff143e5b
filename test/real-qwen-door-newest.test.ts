// The suite of test/real-qwen-door.suite.ts on the registry's newest Qwen Code (docs/49-qwen.md).

import { qwenDoorSuite, qwenPullSuite } from "./real-qwen-door.suite.ts";
import { latestQwenVersion } from "./support/real-qwen/qwen-executable.ts";

const newest = { which: "newest", version: latestQwenVersion } as const;
qwenDoorSuite(newest);
qwenPullSuite(newest);
