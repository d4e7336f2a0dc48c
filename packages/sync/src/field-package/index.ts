/**
 * Field packages of a mirror database (README.md, "Field packages"): plan one (what it holds,
 * about how large), write it, look inside one, take one in. `openMirror` exposes these as
 * `mirror.packages`; the CLI binds them to the database it opened.
 */
import type { FieldPackageOptions } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeImageryStore, type ImageryStore } from '../mirror/imagery';
import { makeMirrorOrigin, type MirrorOrigin } from '../mirror/origin';
import { importFieldPackage, inspectFieldPackage, type PackageImport } from './merge';
import { NO_PIXELS, type PixelSink, type PixelSource } from './pixels';
import { makePlanner, type PackagePlan } from './plan';
import { makeSelection } from './selection';
import { writeFieldPackage, type WrittenPackage } from './write';

export {
  copyResumable,
  CopyCheckError,
  partFile,
  type CopyProgress,
  type CopyResult,
} from './copy';
export { PackageError } from './read';
export { PackageTooLargeError, type PackagePlan } from './plan';
export { SelectionError } from './selection';
export { NO_PIXELS, type PixelSink, type PixelSource, type RasterFile } from './pixels';
export type { PackageImport, MergeCounts } from './merge';
export type { WrittenPackage } from './write';

export interface FieldPackagesDeps {
  readonly sqlite: Database.Database;
  /** The mirror database's file (its pictures are beside it). */
  readonly file: string;
  readonly imagery?: ImageryStore | undefined;
  readonly origin?: MirrorOrigin | undefined;
  /** The mirror's offline rasters (`--pixels`); default none. */
  readonly pixels?: (PixelSource & PixelSink) | undefined;
}

export type PackageSummary = ReturnType<typeof inspectFieldPackage>;

export interface FieldPackages {
  /** What a package of these options would hold, and about how large it would be. */
  plan(options: FieldPackageOptions): PackagePlan;
  /** Writes the package to `file` (absent until complete). */
  write(options: FieldPackageOptions, file: string): WrittenPackage;
  /** A package's description and counts, checked, without taking it in. */
  inspect(file: string): PackageSummary;
  /**
   * Checks the package and merges it into the mirror, all or nothing. `service`: the service
   * this laptop is set up for, checked when the mirror has recorded none.
   */
  import(
    file: string,
    options?: { signal?: AbortSignal | undefined; service?: string | null | undefined },
  ): Promise<PackageImport>;
}

export function makeFieldPackages(deps: FieldPackagesDeps): FieldPackages {
  const imagery = deps.imagery ?? makeImageryStore(deps.sqlite, deps.file);
  const origin = deps.origin ?? makeMirrorOrigin(deps.sqlite);
  const pixels = deps.pixels ?? NO_PIXELS;
  const select = makeSelection(deps.sqlite);
  const planner = makePlanner(deps.sqlite, pixels);
  return {
    plan: (options) => planner(select(options.selection), options).plan,
    write(options, file) {
      const planned = planner(select(options.selection), options);
      return writeFieldPackage(
        { sqlite: deps.sqlite, imagery, pixels, origin: origin.read() },
        planned,
        file,
      );
    },
    inspect: (file) => inspectFieldPackage(file),
    import: (file, options = {}) =>
      importFieldPackage(
        { sqlite: deps.sqlite, imagery, origin, pixels, service: options.service },
        file,
        options,
      ),
  };
}
