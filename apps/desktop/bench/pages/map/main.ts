/**
 * The benchmark pages' one entry: `?bench=quicklooks` runs the quicklook map benchmark
 * (quicklooks-page.ts, bench/quicklooks.ts), anything else the footprint one (page.ts,
 * bench/footprints.ts). Each page module starts its run when loaded.
 */
const which = new URLSearchParams(location.search).get('bench');
void (which === 'quicklooks' ? import('./quicklooks-page') : import('./page'));
