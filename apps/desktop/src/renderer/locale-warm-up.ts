/**
 * Loaded beside the app's script, on its own (no imports: `vite/locale-warm-up.ts` gives it its
 * own file and an async script tag), and run while the app's script is still being read: the
 * first `Intl` formatter of a page loads the locale's data (~20 ms on the machines we measure),
 * and the first screen formats a count, percentages and dates. Made here, in time the page
 * would spend waiting, that load is done before the app's first task needs it; the formatters
 * are thrown away (`format/units.ts` makes and keeps its own, then at the cost of a lookup).
 * Run late (the app's script came first), it costs what the first screen would have paid.
 */
new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(1234.5);
new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
}).format(0);

export {};
