// The suite of test/real-qwen-door.suite.ts on the pinned Qwen Code (docs/49-qwen.md).

import { qwenDoorSuite, qwenPullSuite } from "./real-qwen-door.suite.ts";
import { PINNED_QWEN_VERSION } from "./support/real-qwen/qwen-executable.ts";

const pinned = { which: "pinned", version: async () => PINNED_QWEN_VERSION } as const;
qwenDoorSuite(pinned);
qwenPullSuite(pinned);
