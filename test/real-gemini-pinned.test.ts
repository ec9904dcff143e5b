// The suite of test/real-gemini.suite.ts on the pinned Gemini CLI (docs/49-hosts.md).

import { geminiSuite } from "./real-gemini.suite.ts";
import { PINNED_GEMINI_VERSION } from "./support/real-gemini/gemini-executable.ts";

geminiSuite({ which: "pinned", version: async () => PINNED_GEMINI_VERSION });
