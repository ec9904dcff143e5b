// The suite of test/real-qwen-live.suite.ts on the pinned Qwen Code (docs/49-qwen.md "The push lane").

import { qwenLiveSuite } from "./real-qwen-live.suite.ts";
import { PINNED_QWEN_VERSION } from "./support/real-qwen/qwen-executable.ts";

qwenLiveSuite({ which: "pinned", version: async () => PINNED_QWEN_VERSION });
