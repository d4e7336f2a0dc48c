/**
 * What every export format writes: features with a geometry (null when the record has none)
 * and flat scalar attributes. Built from mirrored records, written by the pure writers beside.
 */
import type { Geometry } from '@eo/domain';

export type Scalar = string | number | boolean | null;

export interface ExportFeature {
  readonly geometry: Geometry | null;
  readonly properties: Readonly<Record<string, Scalar>>;
  /** The record's own bbox, kept as it has it (an antimeridian bbox has west > east). */
  readonly bbox?: readonly number[] | undefined;
}

export function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || Number.isFinite(v);
}

/** The scalar fields of an object, in its order (nested objects and arrays are left out). */
export function scalarFields(value: unknown): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) if (isScalar(v)) out[k] = v;
  return out;
}

/** Attribute names of all features, first seen first: the CSV header. */
export function attributeNames(features: readonly ExportFeature[]): string[] {
  const names = new Set<string>();
  for (const f of features) for (const k of Object.keys(f.properties)) names.add(k);
  return [...names];
}
