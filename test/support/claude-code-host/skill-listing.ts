/**
 * The plugin's skills as the model reads them in Claude Code's skill list
 * (docs/spec/claude-code.md §0), measured on the real Claude Code 2.1.334.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The frontmatter members the listing reads. */
interface SkillHead {
  readonly name: string;
  readonly description: string;
  readonly modelInvocable: boolean;
}

/** Reads the `---` frontmatter of a `SKILL.md` (one `key: value` a line), or `undefined`. */
function skillHead(folder: string, text: string): SkillHead | undefined {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (match === null) return undefined;
  const members = new Map<string, string>();
  for (const line of (match[1] ?? "").split("\n")) {
    const at = line.indexOf(":");
    if (at > 0) members.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return {
    name: members.get("name") ?? folder,
    description: members.get("description") ?? "",
    modelInvocable: members.get("disable-model-invocation") !== "true",
  };
}

/** Escapes as the skill list does: `<` and `>` only (`&` and quotes stay as they are). */
export function escapeSkillDescription(text: string): string {
  return text.replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * The lines `- <plugin>:<skill>: <description>` the model reads for each skill of `pluginRoot`
 * that the model may invoke (those with `disable-model-invocation: true` are not listed), sorted
 * by skill name, the description escaped by {@link escapeSkillDescription}. Claude Code lists them
 * in a `role: "system"` message, among its own skills.
 */
export function skillListing(pluginRoot: string, pluginName = "brigade"): string[] {
  const folder = join(pluginRoot, "skills");
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const head = skillHead(
        entry.name,
        readFileSync(join(folder, entry.name, "SKILL.md"), "utf8"),
      );
      return head?.modelInvocable === true ? [head] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((head) => `- ${pluginName}:${head.name}: ${escapeSkillDescription(head.description)}`);
}
