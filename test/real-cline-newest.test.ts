// The suite of test/real-cline.suite.ts on the registry's newest Cline 2 (docs/49-cline.md
// "Cline 3": the 3.0.x line is another program).

import { clineSuite } from "./real-cline.suite.ts";
import { CLINE_CHOICES } from "./support/real-cline/cline-executable.ts";

clineSuite(CLINE_CHOICES.newest);
