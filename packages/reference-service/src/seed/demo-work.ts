/**
 * The demo organisation's work in progress: on a first start, a few orders and AOIs over the
 * field sites (`demo-sites.ts`), made through the service's own API with the demo key, so they
 * live the lives real ones do: an archive order paid and delivered within seconds, a tasking
 * order whose acquisitions come over the following minutes, a recurring watch, AOIs processing
 * then completed. A field team opening the app for the first time sees orders and AOIs in
 * different states, and a notice when one changes, without making any.
 *
 * Made only when the organisation has no order and no AOI yet (a restart adds nothing).
 */
import type { FastifyInstance } from 'fastify';
import { DEMO } from '@eo/fixtures';
import { demoSiteScenes } from './demo-sites';

const DAY_MS = 86_400_000;

/** A square field of `km` around a point, as an order item's or AOI's geometry. */
function field(lon: number, lat: number, km: number) {
  const dLat = km / 2 / 110.57;
  const dLon = km / 2 / (111.32 * Math.cos((lat * Math.PI) / 180));
  const ring = [
    [lon - dLon, lat - dLat],
    [lon + dLon, lat - dLat],
    [lon + dLon, lat + dLat],
    [lon - dLon, lat + dLat],
    [lon - dLon, lat - dLat],
  ];
  return { type: 'Polygon' as const, coordinates: [ring] };
}

const collection = (geometry: ReturnType<typeof field>) => ({
  type: 'FeatureCollection' as const,
  features: [{ type: 'Feature' as const, properties: {}, geometry }],
});

/** The creates, in the order they are made (bodies of 4.8 and 4.9). */
export function demoWorkRequests(nowMs: number) {
  const scenes = demoSiteScenes();
  const at = (slug: string) => scenes.filter((s) => s.site.slug === slug);
  const camargue = at('camargue');
  const naivasha = at('naivasha');
  const nile = at('nile-delta')[0]!.site;
  const crops = DEMO.projects[0].id;
  const floods = DEMO.projects[1].id;
  const day = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString();
  return {
    orders: [
      {
        order_items: [
          {
            project_id: crops,
            name: 'Camargue rice fields, spring and summer',
            geometry: collection(field(camargue[0]!.site.lon, camargue[0]!.site.lat, 3)),
            item_ids: [camargue[0]!.scene.feature.id, camargue[2]!.scene.feature.id],
          },
        ],
      },
      {
        order_items: [
          {
            project_id: crops,
            name: 'Nile delta fields, new acquisition',
            geometry: collection(field(nile.lon, nile.lat, 5)),
            start_date: day(nowMs + 2 * DAY_MS),
            end_date: day(nowMs + 32 * DAY_MS),
          },
        ],
      },
      {
        order_items: [
          {
            project_id: floods,
            name: 'Lake Naivasha shoreline, weekly watch',
            geometry: collection(field(naivasha[0]!.site.lon, naivasha[0]!.site.lat, 5)),
            recurrence: 'WEEKLY',
            start_date: day(nowMs + DAY_MS),
            end_date: day(nowMs + 29 * DAY_MS),
            no_of_occurrences: 4,
          },
        ],
      },
    ],
    aois: [
      {
        name: 'Camargue field site',
        description: 'Every date of the site, for comparing seasons',
        satellite_id: 'sat-aurora-1',
        provider: 'aurora-archive',
        project_id: crops,
        geometry: field(camargue[0]!.site.lon, camargue[0]!.site.lat, 4),
        item_ids: camargue.map((s) => s.scene.feature.id),
      },
      {
        name: 'Lake Naivasha shore',
        description: 'Water level along the eastern shore',
        satellite_id: 'sat-aurora-1',
        provider: 'aurora-archive',
        project_id: floods,
        geometry: field(naivasha[0]!.site.lon, naivasha[0]!.site.lat, 4),
        item_ids: naivasha.map((s) => s.scene.feature.id),
      },
    ],
  };
}

/**
 * Makes the demo work through the API (`app.inject`, the demo key); a create the service
 * refuses is an error (the bodies are ours: a refusal is a bug, said at once).
 */
export async function seedDemoWork(
  app: FastifyInstance,
  key: string,
  nowMs: number,
): Promise<{ orders: number; aois: number }> {
  const started = app.ctx.sqlite
    .prepare(
      'SELECT EXISTS (SELECT 1 FROM orders WHERE org_id = @org) OR EXISTS (SELECT 1 FROM aois WHERE org_id = @org) AS started',
    )
    .get({ org: DEMO.orgId }) as { started: number };
  if (started.started) return { orders: 0, aois: 0 };
  const { orders, aois } = demoWorkRequests(nowMs);
  const post = async (url: string, payload: unknown) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { authorization: key },
      payload: payload as Record<string, unknown>,
    });
    if (res.statusCode !== 201)
      throw new Error(`demo work: ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  };
  for (const o of orders) await post('/v0/orders', o);
  for (const a of aois) await post('/v0/aois', a);
  return { orders: orders.length, aois: aois.length };
}
