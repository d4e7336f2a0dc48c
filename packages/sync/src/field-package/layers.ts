/**
 * The feature layers of a field package, as QGIS and QField show them: catalog footprints with
 * their STAC attributes, AOIs, order items (with their order's id and status) and archive
 * scenes, each built from the packaged records with the same feature builders as `eo export`.
 * Each layer is read twice (its columns and geometry type first, then its rows): a large
 * catalog is never held in memory.
 */
import {
  FIELD_PACKAGE_LAYERS,
  Geometry,
  type FieldPackageResource,
  type Polygon,
} from '@eo/domain';
import {
  createLayerSchema,
  type AttributeColumn,
  type ExportFeature,
  type GeoPackageWriter,
  type LayerSchema,
} from '@eo/formats/geopackage';
import { aoiFeature, catalogFeature, orderItemFeature } from '../cli/export/records';
import type { makeRecordReads } from './records';
import type { SelectedIds } from './selection';

type Reads = ReturnType<typeof makeRecordReads>;
type Row = Record<string, unknown>;

const parse = (json: string): Row => JSON.parse(json) as Row;

function bboxPolygon(r: Row): Polygon | null {
  const [w, s, e, n] = [r.min_lon, r.min_lat, r.max_lon, r.max_lat];
  if (![w, s, e, n].every((v) => typeof v === 'number')) return null;
  const [x0, y0, x1, y1] = [w, s, e, n] as number[];
  return {
    type: 'Polygon',
    coordinates: [
      [
        [x0!, y0!],
        [x1!, y0!],
        [x1!, y1!],
        [x0!, y1!],
        [x0!, y0!],
      ],
    ],
  };
}

/** An archive scene (a packaged row): its footprint, else its bbox, and what a list shows. */
export function archiveSceneFeature(row: Row): ExportFeature {
  const feature = (() => {
    try {
      return parse(String(row.json));
    } catch {
      return {};
    }
  })();
  const geometry = Geometry.safeParse(feature.geometry);
  const props = (feature.properties ?? {}) as Row;
  const datetime = typeof props.datetime === 'string' ? props.datetime : null;
  return {
    geometry: geometry.success ? geometry.data : bboxPolygon(row),
    properties: {
      id: typeof row.id === 'string' ? row.id : null,
      datetime,
      collection: typeof row.collection_id === 'string' ? row.collection_id : null,
      satellite: typeof row.satellite_id === 'string' ? row.satellite_id : null,
      'eo:cloud_cover': typeof row.cloud_cover === 'number' ? row.cloud_cover : null,
    },
  };
}

/** The features of one layer, built from the records each time it is iterated. */
function layerFeatures(reads: Reads, ids: SelectedIds, layer: keyof typeof FIELD_PACKAGE_LAYERS) {
  const records = function* (resource: FieldPackageResource) {
    for (const id of ids[resource]) {
      const r = reads.read(resource, id);
      if (r) yield parse(r.json);
    }
  };
  return {
    *[Symbol.iterator](): Iterator<ExportFeature> {
      switch (layer) {
        case 'catalog':
          for (const r of records('catalogs')) yield catalogFeature(r);
          return;
        case 'aois':
          for (const r of records('aois')) yield aoiFeature(r);
          return;
        case 'orderItems': {
          const orders = new Map<string, Row>();
          for (const o of records('orders')) if (typeof o.id === 'string') orders.set(o.id, o);
          for (const item of records('orderItems'))
            yield orderItemFeature(orders.get(String(item.order_id)) ?? null, item);
          return;
        }
        case 'archive':
          for (const r of records('archiveScenes')) yield archiveSceneFeature(r);
          return;
      }
    },
  };
}

const text = (key: string): AttributeColumn => ({ key, type: 'TEXT' });
const cloud: AttributeColumn = { key: 'eo:cloud_cover', type: 'REAL' };

/** What each layer has even when empty: the columns a GIS project can style and label by. */
const BASE: Record<keyof typeof FIELD_PACKAGE_LAYERS, Partial<LayerSchema>> = {
  catalog: {
    columns: [text('id'), text('datetime'), text('collection'), cloud, text('platform')],
    geometryType: 'POLYGON',
  },
  aois: {
    columns: [text('aoi_id'), text('name'), text('status'), text('project_id')],
    geometryType: 'POLYGON',
  },
  orderItems: {
    columns: [text('order_id'), text('order_status'), text('id'), text('name'), text('status')],
  },
  archive: {
    columns: [text('id'), text('datetime'), text('collection'), text('satellite'), cloud],
    geometryType: 'POLYGON',
  },
};

const DESCRIPTIONS: Record<keyof typeof FIELD_PACKAGE_LAYERS, string> = {
  catalog: 'Catalog records: footprints with their STAC properties',
  aois: 'Areas of interest',
  orderItems: 'Order items: areas ordered, with their order',
  archive: 'Archive scenes kept by saved archive searches',
};

/** Writes the four feature layers; returns each layer's count and declared geometry type. */
export function writeLayers(gpkg: GeoPackageWriter, reads: Reads, ids: SelectedIds) {
  return (Object.keys(FIELD_PACKAGE_LAYERS) as Array<keyof typeof FIELD_PACKAGE_LAYERS>).map(
    (layer) => {
      const features = layerFeatures(reads, ids, layer);
      const schema = createLayerSchema(BASE[layer]);
      for (const f of features) schema.add(f);
      return gpkg.featureLayer(FIELD_PACKAGE_LAYERS[layer], schema.schema(), features, {
        description: DESCRIPTIONS[layer],
      });
    },
  );
}
