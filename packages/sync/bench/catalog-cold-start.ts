/**
 * The child process of `catalog-scale.ts`'s cold start: opens the mirror at argv[2] as the
 * desktop's backend does (loading the sync package, `openMirror`), then answers what the first screen asks (the counts,
 * the result list's first page and the footprints of a map view), and prints its timings and
 * peak memory as one JSON line. With `--floor` it prints at once: the same process start
 * (Node, tsx) with nothing opened, the floor the cold start is read against.
 */
export {};

const t0 = performance.now();
const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
if (process.argv.includes('--floor')) {
  console.log(JSON.stringify({ openMs: 0, firstScreenMs: 0, maxRssMb: maxRssMb() }));
} else {
  // Loaded here, not above: the floor loads none of it.
  const { CatalogSearchRequest } = await import('@eo/domain');
  const { openMirror } = await import('../src/mirror/mirror');
  const { footprintCount } = await import('../src/search/footprints');
  const mirror = openMirror(process.argv[2]!);
  const opened = performance.now();
  // A first screen: a 10°x10° map view over Europe, newest first, the list's first page.
  const view = CatalogSearchRequest.parse({
    bbox: [5, 40, 15, 50],
    sort_by: [{ field: 'datetime', direction: 'desc' }],
    limit: 100,
  });
  const counts = mirror.counts();
  const page = mirror.catalog.rows(view);
  const rings = mirror.catalog.footprints(view);
  const done = performance.now();
  mirror.close();
  console.log(
    JSON.stringify({
      openMs: opened - t0,
      firstScreenMs: done - opened,
      maxRssMb: maxRssMb(),
      records: counts.catalogs,
      rows: page.rows.length,
      footprints: footprintCount(rings),
    }),
  );
}
