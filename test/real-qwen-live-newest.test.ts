// The suite of test/real-qwen-live.suite.ts on the registry's newest Qwen Code (docs/49-qwen.md "The push lane").

import { qwenLiveSuite } from "./real-qwen-live.suite.ts";
import { latestQwenVersion } from "./support/real-qwen/qwen-executable.ts";

qwenLiveSuite({ which: "newest", version: latestQwenVersion });
