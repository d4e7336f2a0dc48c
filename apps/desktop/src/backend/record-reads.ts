/**
 * Reads of the mirror for the records screens (offline too): orders, order items, AOIs and their
 * assets, indices through `@eo/sync`'s local filters; visualizations, deliveries and jobs this
 * client created (the service cannot list them; `created-refresh.ts` follows their status).
 */
import { IndexMapInfo, parseRfc3339, type Instant } from '@eo/domain';
import type { Mirror, TimeRange } from '@eo/sync';
import type { Output, ParsedInput } from '../shared/contract';
import { indexMapPictureVariant } from '../shared/quicklooks';

/** An inclusive window of RFC 3339 instants as the filters' µs range. */
export function microsRange(w: { from?: string; to?: string } | undefined): TimeRange | undefined {
  if (!w) return undefined;
  const us = (s: string | undefined): Instant | undefined =>
    s === undefined ? undefined : parseRfc3339(s);
  return { fromUs: us(w.from), toUs: us(w.to) };
}

type Row<
  M extends 'orders.list' | 'orderItems.list' | 'aois.list' | 'aois.assets' | 'indices.list',
> = Output<M>[number];

export function makeRecordReads(mirror: Mirror) {
  const { records } = mirror;
  return {
    orders(q: ParsedInput<'orders.list'>): Output<'orders.list'> {
      return records.orders<Row<'orders.list'>>({
        ids: q?.ids,
        status: q?.status,
        created: microsRange(q?.created),
      });
    },
    orderItems(q: ParsedInput<'orderItems.list'>): Output<'orderItems.list'> {
      return records.orderItems<Row<'orderItems.list'>>({
        orderIds: q?.orderIds,
        status: q?.status,
        type: q?.type,
        projectId: q?.projectId,
        created: microsRange(q?.created),
        areaKm2: q?.areaKm2,
        text: q?.text,
      });
    },
    aois(q: ParsedInput<'aois.list'>): Output<'aois.list'> {
      return records.aois<Row<'aois.list'>>({
        status: q?.status,
        projectId: q?.projectId,
        text: q?.text,
      });
    },
    assets(aoiId: string): Output<'aois.assets'> {
      return records.assets<Row<'aois.assets'>>({ aoiId });
    },
    /** Index maps stored for the AOI; one whose stored legend does not parse is left out. */
    indexMaps(aoiId: string): Output<'aois.indexMaps'> {
      return mirror.imagery.indexMaps(aoiId).flatMap((m) => {
        let legend: unknown;
        try {
          legend = JSON.parse(m.legendJson);
        } catch {
          return [];
        }
        const parsed = IndexMapInfo.safeParse(legend);
        if (!parsed.success) return [];
        const { visualizationId, date } = m;
        return [
          { visualizationId, date, variant: indexMapPictureVariant(date), legend: parsed.data },
        ];
      });
    },
    indices(q: ParsedInput<'indices.list'>): Output<'indices.list'> {
      return records.indices<Row<'indices.list'>>({
        type: q?.type,
        satelliteId: q?.satelliteId,
      });
    },
    /** Newest first. */
    visualizations: () => records.visualizations() as Output<'visualizations.list'>,
    deliveries: () => records.deliveries() as Output<'deliveries.list'>,
    jobs: () => records.jobs() as Output<'jobs.list'>,
  };
}

export type RecordReads = ReturnType<typeof makeRecordReads>;
