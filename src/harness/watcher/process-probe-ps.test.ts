import { afterEach, beforeEach, expect, test, vi } from "vitest";

// The non-Linux branch of the probe (macOS reads `ps`), on this Linux machine: the platform is
// pretended and `ps` fails as it does under load (a timeout) or without a free process slot.
vi.mock("node:child_process", () => ({
  execFileSync: () => {
    throw Object.assign(new Error("spawnSync ps ETIMEDOUT"), { code: "ETIMEDOUT" });
  },
}));

const platform = Object.getOwnPropertyDescriptor(process, "platform");
beforeEach(() => {
  Object.defineProperty(process, "platform", { value: "darwin" });
});
afterEach(() => {
  if (platform !== undefined) Object.defineProperty(process, "platform", platform);
});

test("a ps that fails leaves a process that answers kill(pid, 0) alive, and a gone one dead", async () => {
  const { processLiveness, processStartToken } = await import("./process-probe.ts");
  expect(processLiveness(process.pid)).toBe("alive");
  expect(processLiveness(2 ** 30)).toBe("dead");
  expect(processStartToken(process.pid)).toBeUndefined();
});
