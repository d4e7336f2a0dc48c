/**
 * `packages.*`: field packages shared from and opened into the mirror (field-packages.ts).
 */
import type { packagesMethods } from './contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { FieldPackageActions } from '../../backend/field-packages';

export type PackagesHandlers = HandlersFor<keyof typeof packagesMethods>;

export function packagesHandlers(actions: FieldPackageActions): PackagesHandlers {
  return {
    'packages.plan': (req) => actions.plan(req),
    'packages.share': (req) => actions.share(req),
    'packages.open': (req) => actions.open(req),
  };
}
