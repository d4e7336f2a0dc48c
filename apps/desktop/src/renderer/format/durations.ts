/** Durations for people: "45 s", "2 min 5 s", "1 h 20 min"; an em dash when unknown. */
import { MISSING } from './units';

export function formatSeconds(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return MISSING;
  const s = Math.round(v);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return rest > 0 ? `${m} min ${rest} s` : `${m} min`;
}

/** A percentage carried as a string (job progress, spec 2.13): "45" -> 45; anything else null. */
export function percentOf(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/%$/, '').trim());
  return Number.isFinite(n) ? Math.max(0, Math.min(100, n)) : null;
}
