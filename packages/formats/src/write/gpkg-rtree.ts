/**
 * The triggers of the GeoPackage R-tree spatial index extension (`gpkg_rtree_index`, spec
 * annex F.3), which keep `rtree_<table>_<column>` in step when a GIS edits the layer. They call
 * the `ST_*` functions the GeoPackage reader provides (GDAL, QGIS): written here, never fired
 * here (the index is filled while the features are written).
 */
import { quoteId } from './gpkg-names';

type Trigger = (table: string, column: string, id: string) => string;

const rtree = (t: string, c: string) => quoteId(`rtree_${t}_${c}`);
const name = (t: string, c: string, what: string) => quoteId(`rtree_${t}_${c}_${what}`);
const values = (t: string, c: string, i: string) =>
  `INSERT OR REPLACE INTO ${rtree(t, c)} VALUES (NEW.${quoteId(i)},
     ST_MinX(NEW.${quoteId(c)}), ST_MaxX(NEW.${quoteId(c)}),
     ST_MinY(NEW.${quoteId(c)}), ST_MaxY(NEW.${quoteId(c)}));`;
const filled = (c: string) => `(NEW.${quoteId(c)} NOT NULL AND NOT ST_IsEmpty(NEW.${quoteId(c)}))`;
const empty = (c: string) => `(NEW.${quoteId(c)} ISNULL OR ST_IsEmpty(NEW.${quoteId(c)}))`;

export const RTREE_TRIGGERS: readonly Trigger[] = [
  (t, c, i) => `CREATE TRIGGER ${name(t, c, 'insert')} AFTER INSERT ON ${quoteId(t)}
    WHEN ${filled(c)} BEGIN ${values(t, c, i)} END`,
  (
    t,
    c,
    i,
  ) => `CREATE TRIGGER ${name(t, c, 'update1')} AFTER UPDATE OF ${quoteId(c)} ON ${quoteId(t)}
    WHEN OLD.${quoteId(i)} = NEW.${quoteId(i)} AND ${filled(c)} BEGIN ${values(t, c, i)} END`,
  (
    t,
    c,
    i,
  ) => `CREATE TRIGGER ${name(t, c, 'update2')} AFTER UPDATE OF ${quoteId(c)} ON ${quoteId(t)}
    WHEN OLD.${quoteId(i)} = NEW.${quoteId(i)} AND ${empty(c)}
    BEGIN DELETE FROM ${rtree(t, c)} WHERE id = OLD.${quoteId(i)}; END`,
  (t, c, i) => `CREATE TRIGGER ${name(t, c, 'update3')} AFTER UPDATE ON ${quoteId(t)}
    WHEN OLD.${quoteId(i)} != NEW.${quoteId(i)} AND ${filled(c)}
    BEGIN DELETE FROM ${rtree(t, c)} WHERE id = OLD.${quoteId(i)}; ${values(t, c, i)} END`,
  (t, c, i) => `CREATE TRIGGER ${name(t, c, 'update4')} AFTER UPDATE ON ${quoteId(t)}
    WHEN OLD.${quoteId(i)} != NEW.${quoteId(i)} AND ${empty(c)}
    BEGIN DELETE FROM ${rtree(t, c)} WHERE id IN (OLD.${quoteId(i)}, NEW.${quoteId(i)}); END`,
  (t, c, i) => `CREATE TRIGGER ${name(t, c, 'delete')} AFTER DELETE ON ${quoteId(t)}
    WHEN OLD.${quoteId(c)} NOT NULL
    BEGIN DELETE FROM ${rtree(t, c)} WHERE id = OLD.${quoteId(i)}; END`,
];
