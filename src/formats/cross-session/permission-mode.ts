/**
 * The sender's self-attested permission-mode class: `bypass` (runs tools without asking) or
 * `prompting`. Absence means "no class asserted". An attestation, never a verified fact.
 */
export type PermissionModeClass = "bypass" | "prompting";

/** Every permission-mode class, frozen, in this order: `["bypass", "prompting"]`. */
export const PERMISSION_MODE_CLASSES: readonly PermissionModeClass[] = Object.freeze([
  "bypass",
  "prompting",
] as const);

/**
 * True iff `value` is exactly `"bypass"` or `"prompting"` (case-sensitive, never throws).
 * Example: `isPermissionModeClass("auto")` is `false`.
 */
export function isPermissionModeClass(value: unknown): value is PermissionModeClass {
  return value === "bypass" || value === "prompting";
}
