/**
 * `<input type="datetime-local">` values are the user's wall-clock time; the API wants RFC 3339
 * instants. These convert both ways in the user's own time zone.
 */
const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** "2024-05-17T10:30" (local) -> "2024-05-17T08:30:00Z"; null when not a real local time. */
export function localInputToRfc3339(value: string): string | null {
  const m = LOCAL_RE.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(y, mo - 1, d, h, mi, s, 0);
  if (Number.isNaN(date.getTime()) || date.getFullYear() !== y || date.getMonth() !== mo - 1) {
    return null;
  }
  if (date.getDate() !== d) return null;
  return date.toISOString().replace('.000Z', 'Z');
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** An RFC 3339 instant -> the local "YYYY-MM-DDTHH:MM" the input shows; '' when unreadable. */
export function rfc3339ToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const d = new Date(t);
  return (
    `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}` +
    `T${pad2(d.getHours())}:${pad2(d.getMinutes())}`
  );
}
