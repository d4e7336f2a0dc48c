/**
 * `files.preview`: a field file's features read by `@eo/formats` (in the backend, never in the
 * renderer), each checked and repaired as an area. Nothing is queued here: the renderer queues
 * the picked features as AOIs through the outbox. `files.export`: records of the mirror as a
 * field file (file-export.ts). `files.typedArea`: an area typed or pasted (a box, WKT, GeoJSON),
 * read and checked by the same library.
 */
// Types only here: the readers (XML, zip, projections: most of the backend's code by size) load
// on the first preview, not at start-up (cold start, issue 13).
import type { PreviewFeature } from '@eo/formats';
import {
  ContractError,
  MAX_IMPORT_FILE_BYTES,
  type filesMethods,
  type PreviewFeatureView,
  type TypedAreaView,
} from '../../shared/contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { FileExport } from '../../backend/file-export';

export type FilesHandlers = HandlersFor<keyof typeof filesMethods>;

/** What the renderer needs of a feature: the area it would queue, not the geometry as read. */
function view(f: PreviewFeature): PreviewFeatureView {
  return {
    index: f.index,
    name: f.name,
    properties: { ...f.properties },
    geometryType: f.geometry?.type ?? null,
    area: f.area as PreviewFeatureView['area'],
    repairs: [...f.repairs],
    problem: f.problem,
  };
}

export function filesHandlers(exporter: FileExport): FilesHandlers {
  return {
    'files.export': (req) => exporter.export(req),
    'files.typedArea': async ({ text }) => {
      // Bounded by the contract (512 K characters): read here, in well under a second.
      const { readTypedArea } = await import('@eo/formats');
      const r = await readTypedArea(text);
      return {
        kind: r.kind,
        area: r.area as TypedAreaView['area'],
        repairs: [...r.repairs],
        problem: r.problem,
      };
    },
    'files.preview': async ({ name, base64, nameField }) => {
      const bytes = Buffer.from(base64, 'base64');
      const { FormatError, importFileInWorker } = await import('@eo/formats');
      try {
        // In a thread of its own with memory and time limits: a hostile or huge file is refused
        // with a reason, while the backend (and the embedded service beside it) keeps answering.
        const preview = await importFileInWorker(
          { name, bytes },
          {
            nameField,
            limits: { maxFileBytes: MAX_IMPORT_FILE_BYTES },
          },
        );
        return {
          file: name,
          format: preview.format,
          sourceCrs: preview.sourceCrs,
          warnings: [...preview.warnings],
          features: preview.features.map(view),
        };
      } catch (e) {
        // A file that cannot be read at all: its name, the feature at fault and why.
        if (e instanceof FormatError)
          throw new ContractError('invalid_argument', e.message, {
            issues: [
              {
                path: e.feature === undefined ? 'file' : `feature ${e.feature}`,
                message: e.reason,
              },
            ],
          });
        throw e;
      }
    },
  };
}
