/*
 * The building blocks of the hand-written validators (docs/spec/protocol.md §2.6). Readers throw a
 * private FieldFailure on the first failed rule; `runValidation` turns it into a ValidationResult,
 * so no validator throws to its caller. Internal to src/protocol (not exported from index.ts).
 */

import type { JsonObject } from "../encoding/json-value.ts";
import { isRfc3339Timestamp } from "../encoding/rfc3339.ts";
import { isNonIntegerLexeme } from "../encoding/strict-json.ts";
import { codePointLength, hasLoneSurrogate, utf8ByteLength } from "../encoding/text-measure.ts";
import type { InvalidInputExtras } from "../errors/error-builders.ts";
import { invalidInputError } from "../errors/error-builders.ts";
import type { CapUnit, InvalidInputReason } from "../errors/error-reasons.ts";
import type { ProtocolError } from "../errors/protocol-error.ts";
import type { ValidationResult } from "./validation-result.ts";

/** A JSON object under validation. */
export type WireObject = Readonly<Record<string, unknown>>;

class FieldFailure {
  readonly error: ProtocolError;
  constructor(error: ProtocolError) {
    this.error = error;
  }
}

/** Aborts the running validation with `error`. */
export function failWith(error: ProtocolError): never {
  throw new FieldFailure(error);
}

/** Aborts the running validation with `invalid_input` about `field`. */
export function failField(
  field: string | undefined,
  reason: InvalidInputReason,
  extras?: InvalidInputExtras,
): never {
  throw new FieldFailure(invalidInputError(field, reason, extras));
}

/** Runs a reader; a FieldFailure becomes `{ ok: false }`, anything else is a bug and propagates. */
export function runValidation<T>(read: () => T): ValidationResult<T> {
  try {
    return { ok: true, value: read() };
  } catch (caught) {
    if (caught instanceof FieldFailure) return { ok: false, error: caught.error };
    throw caught;
  }
}

/** `prefix.name`, or `name` at the root. */
export function fieldPath(prefix: string, name: string | number): string {
  return prefix === "" ? String(name) : `${prefix}.${name}`;
}

/** The value at `path` must be a JSON object. The root (`""`) names no field. */
export function expectObject(value: unknown, path: string): WireObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    failField(path === "" ? undefined : path, "invalid_value");
  }
  return value as WireObject;
}

/** An own member of `object`, or `undefined` (never an inherited property). */
export function member(object: WireObject, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

/** True when `object` has the own member `name` (any value, `null` included). */
export function hasMember(object: WireObject, name: string): boolean {
  return Object.hasOwn(object, name);
}

/** A length rule for strings. */
export interface StringRule {
  /** Refuse `""` (reason `invalid_value`). */
  readonly nonEmpty?: boolean;
  /** Upper bound, inclusive, in `unit`. */
  readonly cap?: number;
  /** Unit of `cap`; defaults to code points. */
  readonly unit?: CapUnit;
}

function checkString(value: unknown, path: string, rule: StringRule | undefined): string {
  if (typeof value !== "string") failField(path, "invalid_value");
  if (hasLoneSurrogate(value)) failField(path, "not_utf8");
  if (rule === undefined) return value;
  if (rule.nonEmpty === true && value.length === 0) failField(path, "invalid_value");
  const cap = rule.cap;
  if (cap !== undefined) {
    if (rule.unit === "bytes") {
      // Every UTF-16 unit is at most 3 UTF-8 bytes: short strings need no count.
      if (value.length * 3 > cap) {
        const bytes = utf8ByteLength(value);
        if (bytes > cap) {
          failField(path, "too_long", { limit: String(cap), actual: String(bytes), unit: "bytes" });
        }
      }
    } else if (value.length > cap) {
      const codePoints = codePointLength(value);
      if (codePoints > cap) {
        failField(path, "too_long", {
          limit: String(cap),
          actual: String(codePoints),
          unit: "codepoints",
        });
      }
    }
  }
  return value;
}

/** Required string member. */
export function requiredString(
  object: WireObject,
  name: string,
  prefix: string,
  rule?: StringRule,
): string {
  const path = fieldPath(prefix, name);
  const value = member(object, name);
  if (value === undefined) failField(path, "required");
  return checkString(value, path, rule);
}

/** Optional string member; `null` is refused (`invalid_value`). */
export function optionalString(
  object: WireObject,
  name: string,
  prefix: string,
  rule?: StringRule,
): string | undefined {
  const value = member(object, name);
  if (value === undefined) return undefined;
  return checkString(value, fieldPath(prefix, name), rule);
}

/** Optional string member that may be an explicit `null`. */
export function nullableString(
  object: WireObject,
  name: string,
  prefix: string,
  rule?: StringRule,
): string | null | undefined {
  const value = member(object, name);
  if (value === undefined || value === null) return value;
  return checkString(value, fieldPath(prefix, name), rule);
}

function checkInteger(
  object: WireObject,
  name: string,
  value: unknown,
  path: string,
  min: number,
  max: number,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || isNonIntegerLexeme(object, name)) {
    failField(path, "invalid_value");
  }
  if (value < min || value > max) {
    failField(path, "out_of_range", { min: String(min), max: String(max) });
  }
  return value;
}

/** Required integer member within `min..max` (inclusive). */
export function requiredInteger(
  object: WireObject,
  name: string,
  prefix: string,
  min: number,
  max: number,
): number {
  const path = fieldPath(prefix, name);
  const value = member(object, name);
  if (value === undefined) failField(path, "required");
  return checkInteger(object, name, value, path, min, max);
}

/** Optional integer member within `min..max`; `null` refused. */
export function optionalInteger(
  object: WireObject,
  name: string,
  prefix: string,
  min: number,
  max: number,
): number | undefined {
  const value = member(object, name);
  if (value === undefined) return undefined;
  return checkInteger(object, name, value, fieldPath(prefix, name), min, max);
}

/** Optional integer member within `min..max` that may be an explicit `null`. */
export function nullableInteger(
  object: WireObject,
  name: string,
  prefix: string,
  min: number,
  max: number,
): number | null | undefined {
  const value = member(object, name);
  if (value === undefined || value === null) return value;
  return checkInteger(object, name, value, fieldPath(prefix, name), min, max);
}

/** Required boolean member. */
export function requiredBoolean(object: WireObject, name: string, prefix: string): boolean {
  const path = fieldPath(prefix, name);
  const value = member(object, name);
  if (value === undefined) failField(path, "required");
  if (typeof value !== "boolean") failField(path, "invalid_value");
  return value;
}

function checkEnum<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    failField(path, "invalid_value", { allowed: allowed.join(",") });
  }
  return value as T;
}

/** Required member whose value is one of `allowed`. */
export function requiredEnum<T extends string>(
  object: WireObject,
  name: string,
  prefix: string,
  allowed: readonly T[],
): T {
  const path = fieldPath(prefix, name);
  const value = member(object, name);
  if (value === undefined) failField(path, "required");
  return checkEnum(value, path, allowed);
}

/** Optional member whose value is one of `allowed`; `null` refused. */
export function optionalEnum<T extends string>(
  object: WireObject,
  name: string,
  prefix: string,
  allowed: readonly T[],
): T | undefined {
  const value = member(object, name);
  if (value === undefined) return undefined;
  return checkEnum(value, fieldPath(prefix, name), allowed);
}

/** Optional member whose value is one of `allowed` or an explicit `null`. */
export function nullableEnum<T extends string>(
  object: WireObject,
  name: string,
  prefix: string,
  allowed: readonly T[],
): T | null | undefined {
  const value = member(object, name);
  if (value === undefined || value === null) return value;
  return checkEnum(value, fieldPath(prefix, name), allowed);
}

/** Required RFC 3339 timestamp member (docs/spec/protocol.md §2.7). */
export function requiredTimestamp(object: WireObject, name: string, prefix: string): string {
  const path = fieldPath(prefix, name);
  const value = requiredString(object, name, prefix);
  if (!isRfc3339Timestamp(value)) failField(path, "invalid_value");
  return value;
}

/** Required nested object member. */
export function requiredObject(object: WireObject, name: string, prefix: string): WireObject {
  const path = fieldPath(prefix, name);
  const value = member(object, name);
  if (value === undefined) failField(path, "required");
  return expectObject(value, path);
}

/**
 * A required array member (docs/spec/protocol.md §2.3). Absent reads as `[]` when `absentAsEmpty`
 * (consumers of result arrays); otherwise absent is `required`. Elements are read by `readElement`.
 */
export function requiredArray<T>(
  object: WireObject,
  name: string,
  prefix: string,
  absentAsEmpty: boolean,
  readElement: (element: unknown, path: string, array: readonly unknown[], index: number) => T,
): T[] {
  const path = fieldPath(prefix, name);
  const value = member(object, name);
  if (value === undefined) {
    if (absentAsEmpty) return [];
    failField(path, "required");
  }
  if (!Array.isArray(value)) failField(path, "invalid_value");
  const out: T[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    out[i] = readElement(value[i], fieldPath(path, i), value, i);
  }
  return out;
}

/** Array element reader: a non-empty string (ids). */
export function nonEmptyStringElement(element: unknown, path: string): string {
  return checkString(element, path, { nonEmpty: true });
}

/** Array element reader: any string. */
export function stringElement(element: unknown, path: string): string {
  return checkString(element, path, undefined);
}

/** An adapter-defined JSON object member, copied deeply as is (e.g. `team join`'s `backend`). */
export function optionalJsonObject(
  object: WireObject,
  name: string,
  prefix: string,
): JsonObject | undefined {
  const value = member(object, name);
  if (value === undefined) return undefined;
  const path = fieldPath(prefix, name);
  expectObject(value, path);
  return structuredCloneJson(value) as JsonObject;
}

function structuredCloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCloneJson);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const copy = structuredCloneJson((value as Record<string, unknown>)[key]);
      if (key === "__proto__") {
        Object.defineProperty(out, key, {
          value: copy,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else {
        out[key] = copy;
      }
    }
    return out;
  }
  return value;
}
