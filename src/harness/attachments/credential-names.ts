/**
 * The file names credentials are kept under, refused as attachments by default
 * (docs/43-session-cli.md, "Attachments"): environment files, SSH private keys, key and
 * certificate stores, and the usual per-tool credential files. Short on purpose: it catches the
 * names a prompt-injected model reaches for first, and what it misses the other rules (the
 * project folder, git's ignore rules) still stop. Matched on the last path component, in any
 * letter case; `*` stands for any run of characters. A person lets an exact name through with
 * `allow_names` in their attachment settings.
 *
 * @example CREDENTIAL_NAME_PATTERNS.includes("id_ed25519") === true
 */
export const CREDENTIAL_NAME_PATTERNS: readonly string[] = Object.freeze([
  ".env",
  ".env.*",
  "*.env",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  "id_ecdsa_sk",
  "id_ed25519_sk",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.jks",
  "*.keystore",
  "*.kdbx",
  ".netrc",
  "_netrc",
  ".npmrc",
  ".pypirc",
  ".pgpass",
  ".git-credentials",
  ".htpasswd",
  "credentials",
  "credentials.json",
  "*.tfstate",
]);

function matches(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const [head = "", tail = ""] = pattern.split("*");
  return (
    name.length > head.length + tail.length - 1 && name.startsWith(head) && name.endsWith(tail)
  );
}

/**
 * Whether `name` (a file's last path component) matches {@link CREDENTIAL_NAME_PATTERNS}, in any
 * letter case, and is not one of `allowed` (exact names the person allowed). Pure.
 *
 * @example isCredentialName("Server.PEM", []) === true; isCredentialName("notes.md", []) === false
 */
export function isCredentialName(name: string, allowed: readonly string[]): boolean {
  if (allowed.includes(name)) return false;
  const lower = name.toLowerCase();
  return CREDENTIAL_NAME_PATTERNS.some((pattern) => matches(pattern, lower));
}
