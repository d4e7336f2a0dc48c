/**
 * Every record, picture and raster of a package read and checked, without merging: what a
 * package must pass before anything of it is taken in. Run in a thread of its own with memory
 * and time limits (`check-in-worker.ts`): the file is another laptop's, and may be made to hurt.
 */
import { carriedRasterProblem } from '../offline/package-rasters';
import { checkPicture, checkRecord, checkedParts } from './checks';
import { openFieldPackage, PackageError } from './read';

export interface CheckedPackage {
  readonly manifest: ReturnType<typeof openFieldPackage>['manifest'];
  readonly bytes: number;
  readonly records: number;
  readonly pictures: number;
  readonly rasters: number;
}

export function checkPackageFile(file: string): CheckedPackage {
  const pkg = openFieldPackage(file);
  try {
    const counts = pkg.counts();
    for (const chunk of pkg.records()) for (const r of chunk) checkRecord(r);
    for (const chunk of pkg.pictures()) for (const p of chunk) checkPicture(p);
    let rasters = 0;
    for (const raster of pkg.rasters()) {
      const problem = carriedRasterProblem(raster.file);
      if (problem)
        throw new PackageError(`the package is damaged: raster ${raster.file.name}: ${problem}`);
      for (const part of checkedParts(raster.file, raster.parts())) void part;
      rasters++;
    }
    return { manifest: pkg.manifest, bytes: pkg.bytes, ...counts, rasters };
  } finally {
    pkg.close();
  }
}
