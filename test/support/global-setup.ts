import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** True when the run was started with `vitest run --update`: goldens are rewritten. */
    updateGoldens: boolean;
  }
}

/** Passes the `--update` flag to the workers, so goldens are rewritten only on explicit request. */
export default function setup(project: TestProject): void {
  project.provide(
    "updateGoldens",
    project.config.update === true || project.config.update === "all",
  );
}
