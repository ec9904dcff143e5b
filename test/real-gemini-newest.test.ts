// The suite of test/real-gemini.suite.ts on the registry's newest Gemini CLI (docs/49-hosts.md).

import { geminiSuite } from "./real-gemini.suite.ts";
import { latestGeminiVersion } from "./support/real-gemini/gemini-executable.ts";

geminiSuite({ which: "newest", version: latestGeminiVersion });
