/** Attributes as flat scalars (what every export writes and a preview shows). */
import { isScalar, type Scalar } from '../write/feature';

function scalarOf(v: unknown): Scalar {
  if (isScalar(v)) return v;
  if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return v.toString();
  // togeojson's rich descriptions: { '@type': 'html', value }.
  if (typeof v === 'object' && v !== null && 'value' in v && typeof v.value === 'string')
    return v.value;
  return JSON.stringify(v) ?? null;
}

export function flatProperties(p: unknown): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return out;
  for (const [k, v] of Object.entries(p)) out[k] = scalarOf(v);
  return out;
}
