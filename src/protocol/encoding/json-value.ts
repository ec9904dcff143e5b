/**
 * A JSON value as produced by {@link parseJsonDocument} or `JSON.parse`: no `undefined`, no
 * functions, numbers are finite or infinite IEEE doubles.
 *
 * @example
 * const v: JsonValue = { ok: true, list: [1, "two", null] };
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/**
 * A JSON object: string member names to JSON values. Used for adapter-defined shapes
 * (`team join`'s `backend`, the `profile` verbs' results).
 *
 * @example
 * const backend: JsonObject = { url: "https://brigade.example.org" };
 */
export interface JsonObject {
  [member: string]: JsonValue;
}

/**
 * True when `value` is a JSON object: not `null`, not an array, a plain object.
 *
 * @example
 * isJsonObject({}) === true; isJsonObject([]) === false; isJsonObject(null) === false;
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
