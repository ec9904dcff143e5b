/**
 * The files a fresh Claude Code config folder needs so that an interactive session starts
 * straight at its prompt, with no first-run dialog a test would have to answer.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The dummy API key every session uses (the fake API accepts any). */
export const DUMMY_API_KEY = "sk-ant-api03-brigade-test-key-0000000000000000";

/** What to write. */
export interface ClientConfigOptions {
  /** `CLAUDE_CONFIG_DIR`: created (0700) when missing. */
  readonly configDir: string;
  /** The folder the session starts in: its trust dialog is marked as accepted. */
  readonly projectDir: string;
  /** The API key the session is started with; its last 20 characters are marked approved. */
  readonly apiKey?: string;
  /** Members of the user `settings.json` on top of the allow rule for `Bash(brigade:*)`. */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/**
 * Writes `<configDir>/.claude.json` (onboarding done, a theme chosen, the API key approved, the
 * project trusted, bypass mode acknowledged) and `<configDir>/settings.json` (the
 * `Bash(brigade:*)` allow rule, plus `settings`). Those are the answers to the first-run dialogs
 * (theme, trust folder, custom API key, bypass warning), given before the start, so no test
 * depends on a dialog's wording or key bindings. Claude Code rewrites `settings.json` at start;
 * read it back rather than assume these bytes stay.
 */
export function writeClientConfig(options: ClientConfigOptions): void {
  const apiKey = options.apiKey ?? DUMMY_API_KEY;
  mkdirSync(options.configDir, { recursive: true, mode: 0o700 });
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    bypassPermissionsModeAccepted: true,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: {
      [options.projectDir]: { hasTrustDialogAccepted: true, allowedTools: [] },
    },
  };
  writeFileSync(join(options.configDir, ".claude.json"), `${JSON.stringify(state, null, 2)}\n`, {
    mode: 0o600,
  });
  const settings = {
    permissions: { allow: ["Bash(brigade:*)"] },
    ...options.settings,
  };
  writeFileSync(
    join(options.configDir, "settings.json"),
    `${JSON.stringify(settings, null, 2)}\n`,
    {
      mode: 0o600,
    },
  );
}
