/**
 * Field packages from the app (`packages.*`): @eo/sync's `mirror.packages` with the app's
 * bounds. A package is written to a private temporary folder and handed back as bytes (main
 * saves them through its dialog, browser mode downloads them), budgeted to what crosses the
 * bridge; one opened from the page is written there from its bytes and merged, all or nothing,
 * checked against the service this laptop is set up for. The temporary folder goes in every case.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FieldPackageOptions } from '@eo/domain';
import {
  OriginMismatchError,
  PackageError,
  PackageTooLargeError,
  SelectionError,
  type Mirror,
  type PackageImport,
  type PackagePlan,
} from '@eo/sync';
import {
  ContractError,
  MAX_APP_PACKAGE_BYTES,
  type ExportedFile,
  type PackagePlanView,
  type ParsedInput,
} from '../shared/contract';
import type { BackendEvents } from './events';

type ShareRequest = ParsedInput<'packages.share'>;
type OpenRequest = ParsedInput<'packages.open'>;

export interface FieldPackagesDeps {
  readonly mirror: Pick<Mirror, 'packages'>;
  readonly events: Pick<BackendEvents, 'emit'>;
  /** The service this laptop is set up for (checked when the mirror has recorded none). */
  readonly service: () => string | null;
  /** Where temporary folders go (tests: a folder of theirs). */
  readonly tmpDir?: string | undefined;
  /** After an import: its catalog records were stored as text, to pack in the background. */
  readonly onImported?: (() => void) | undefined;
}

/** The options as @eo/sync takes them: no rasters, the budget at most the app's limit. */
function optionsOf(req: ShareRequest): FieldPackageOptions {
  return {
    ...req,
    pixels: false,
    budgetBytes: Math.min(req.budgetBytes ?? MAX_APP_PACKAGE_BYTES, MAX_APP_PACKAGE_BYTES),
  };
}

function viewOf(plan: PackagePlan): PackagePlanView {
  return {
    label: plan.label,
    records: plan.records,
    recordBytes: plan.recordBytes,
    pictures: plan.pictures,
    leftOut: plan.leftOut,
    estimatedBytes: plan.estimatedBytes,
    budgetBytes: plan.budgetBytes ?? MAX_APP_PACKAGE_BYTES,
  };
}

/**
 * A selection the mirror cannot make (an AOI or saved search it does not hold) or records
 * over the budget: the user's to mend, said as such rather than as an internal failure.
 */
function planOf(mirror: FieldPackagesDeps['mirror'], options: FieldPackageOptions): PackagePlan {
  try {
    return mirror.packages.plan(options);
  } catch (e) {
    if (e instanceof SelectionError || e instanceof PackageTooLargeError)
      throw new ContractError('invalid_argument', e.message, {
        issues: [{ path: 'selection', message: e.message }],
      });
    throw e;
  }
}

const mb = (n: number) => `${Math.ceil(n / 1024 / 1024)} MB`;

/** A file name from the package's label: "eo-package-aoi-maize-2024-20261128.gpkg". */
function fileNameOf(label: string, now: Date): string {
  const stem = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  return `eo-package-${stem || 'site'}-${day}.gpkg`;
}

export function makeFieldPackageActions(deps: FieldPackagesDeps) {
  const withTemp = async <T>(run: (dir: string) => Promise<T> | T): Promise<T> => {
    const dir = fs.mkdtempSync(path.join(deps.tmpDir ?? os.tmpdir(), 'eo-package-'));
    try {
      return await run(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  return {
    plan: (req: ShareRequest): PackagePlanView => viewOf(planOf(deps.mirror, optionsOf(req))),

    share: (req: ShareRequest): Promise<ExportedFile> =>
      withTemp((dir) => {
        const options = optionsOf(req);
        const plan = planOf(deps.mirror, options);
        if (plan.recordBytes > MAX_APP_PACKAGE_BYTES)
          throw new ContractError(
            'invalid_argument',
            `${plan.label}: its records alone are about ${mb(plan.recordBytes)}, over the ${mb(MAX_APP_PACKAGE_BYTES)} the app shares; choose a smaller area or use eo package export`,
          );
        const fileName = fileNameOf(plan.label, new Date());
        const file = path.join(dir, fileName);
        deps.mirror.packages.write(options, file);
        const bytes = fs.readFileSync(file);
        const records = Object.values(plan.records).reduce((a, n) => a + n, 0);
        return {
          fileName,
          mediaType: 'application/geopackage+sqlite3',
          features: records,
          bytes: bytes.length,
          base64: bytes.toString('base64'),
        };
      }),

    open: (req: OpenRequest): Promise<PackageImport> =>
      withTemp(async (dir) => {
        const file = path.join(dir, 'package.gpkg');
        fs.writeFileSync(file, Buffer.from(req.base64, 'base64'), { mode: 0o600 });
        let report: PackageImport;
        try {
          report = await deps.mirror.packages.import(file, { service: deps.service() });
        } catch (e) {
          if (e instanceof PackageError || e instanceof OriginMismatchError)
            throw new ContractError('invalid_argument', `${req.name}: ${e.message}`, {
              issues: [{ path: 'file', message: e.message }],
            });
          throw e;
        }
        deps.events.emit('records.changed', {
          kinds: ['orders', 'aois', 'indices', 'visualizations', 'deliveries', 'jobs'],
        });
        deps.onImported?.();
        return report;
      }),
  };
}

export type FieldPackageActions = ReturnType<typeof makeFieldPackageActions>;
