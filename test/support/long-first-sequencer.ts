import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take minutes (mostly waiting on real clocks) or the most CPU, longest first: the
 * queue starts them before the short files, which then fill the gaps. Measured in docs/00-architecture.md, "Test layout".
 */
export const LONG_FIRST = [
  "test/plugin-pacing.test.ts",
  "test/conformance-postgres.test.ts",
  "test/conformance-sqlite.test.ts",
  "test/conformance-mutants.test.ts",
  "test/real-claude-ack.test.ts",
  "test/real-claude-attachments-pinned.test.ts",
  "test/real-codex-attachments-pinned.test.ts",
  "test/real-qwen-live-pinned.test.ts",
  "test/real-qwen-live-newest.test.ts",
  "test/real-claude-states-pinned.test.ts",
  "test/real-claude-states-newest.test.ts",
  "test/real-claude-drop-pinned.test.ts",
  "test/real-claude-drop-newest.test.ts",
  "test/real-claude-settings.test.ts",
  "test/real-gemini-pinned.test.ts",
  "test/real-gemini-newest.test.ts",
  "test/real-hosts-exchange.test.ts",
  "test/real-cline-pinned.test.ts",
  "test/real-cline-newest.test.ts",
  "test/real-opencode-pinned.test.ts",
  "test/real-opencode-newest.test.ts",
  "test/real-relay-chain.test.ts",
  "test/cli-demo.test.ts",
  "test/plugin-e2e.test.ts",
  "test/faults-postgres.test.ts",
  "test/mcp-client.test.ts",
  "test/attachments-memory.test.ts",
  "test/dashboard-browser.test.ts",
];

/**
 * Vitest's own order (group order, then its cache of past durations, else file size), with the
 * files of `LONG_FIRST` moved to the front in that list's order. A clean clone has no cache, so
 * without the list a four-minute file could start last and leave the run waiting on it alone.
 */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification): number => {
      const at = LONG_FIRST.indexOf(relative(root, spec.moduleId));
      return at < 0 ? LONG_FIRST.length : at;
    };
    const group = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder;
    // Array.prototype.sort is stable: ties keep vitest's order.
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
