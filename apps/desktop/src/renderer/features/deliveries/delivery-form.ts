/**
 * The delivery form as data. One delivery request per create, from ONE source: the catalog
 * records in the catalog's basket or in an area from a file (`catalog_ids`), or order items (`order_item_ids`,
 * mirrored ids or `local:<orderEntryId>#<n>` for item n of a queued order), plus the cloud
 * location (config and path). Checked with the domain's `CreateDeliveriesRequest`, whose rule
 * "exactly one of catalog_ids / order_item_ids, non-empty" is the one the service applies.
 */
import { CreateDeliveriesRequest, storePathProblem, type DeliveryRequestInput } from '@eo/domain';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import { DELIVERY_WORDS, type DeliveryField } from '../../forms/words/delivery-words';

/** `area`: the mirrored records in an area from a field file (delivery-area.ts). */
export type DeliverySource = 'catalog' | 'area' | 'orderItems';

export interface DeliveryForm {
  source: DeliverySource;
  catalogIds: string[];
  orderItemIds: string[];
  config: string;
  path: string;
}

export type { DeliveryField } from '../../forms/words/delivery-words';
export { DELIVERY_WORDS } from '../../forms/words/delivery-words';

/** The id of each field's control in DeliveryForm.vue. */
export const DELIVERY_CONTROLS: Record<DeliveryField, string> = {
  source: 'delivery-source',
  config: 'delivery-config',
  path: 'delivery-path',
};

export function emptyDeliveryForm(): DeliveryForm {
  return { source: 'catalog', catalogIds: [], orderItemIds: [], config: '', path: '' };
}

/** A queued delivery's input back into the form; requests after the first are kept aside. */
export function deliveryFormFromInput(input: Record<string, unknown>): {
  form: DeliveryForm;
  others: DeliveryRequestInput[];
} {
  const parsed = CreateDeliveriesRequest.safeParse(input);
  if (!parsed.success) return { form: emptyDeliveryForm(), others: [] };
  const [first, ...others] = parsed.data.deliveries;
  const items = first?.order_item_ids ?? [];
  return {
    form: {
      source: items.length > 0 ? 'orderItems' : 'catalog',
      catalogIds: first?.catalog_ids ?? [],
      orderItemIds: items,
      config: first?.cloud_info.config ?? '',
      path: first?.cloud_info.path ?? '',
    },
    others,
  };
}

export function deliveryInput(
  form: DeliveryForm,
  others: readonly DeliveryRequestInput[] = [],
): CreateDeliveriesRequest {
  const ids =
    form.source === 'orderItems'
      ? { order_item_ids: form.orderItemIds }
      : { catalog_ids: form.catalogIds };
  return {
    deliveries: [
      { ...ids, cloud_info: { config: form.config.trim(), path: form.path.trim() } },
      ...others,
    ],
  };
}

export interface DeliveryCheck {
  readonly errors: Partial<Record<DeliveryField | 'form', string>>;
  readonly warnings: Partial<Record<DeliveryField, string>>;
  readonly payload: CreateDeliveriesRequest | null;
}

/** A delivery store the service listed (`lookups.stores`): `config` names one by its id. */
export interface DeliveryStore {
  readonly id: string;
  readonly name: string | null;
  readonly type: string | null;
}

/** "field-s3 (S3)": a store as a person picks it. */
export const storeLabel = (s: DeliveryStore): string =>
  `${s.name ?? s.id}${s.type ? ` (${s.type})` : ''}`;

/**
 * What a cloud location configuration is, under its field (issue 26: the form gave no idea),
 * with an example: the first store the service lists, else the reference service's S3 store.
 */
export function configHint(stores: readonly DeliveryStore[]): string {
  const what =
    'The store the files go to: a bucket the service was set up to write to, its credentials kept there (not a URL).';
  const inside = 'The path below is the folder inside it.';
  const example = stores[0];
  if (example) {
    return `${what} Pick one of the service's ${stores.length === 1 ? 'store' : `${stores.length} stores`} by its id, e.g. ${example.id}: ${storeLabel(example)}. ${inside}`;
  }
  return `${what} Its id comes from whoever set up your account, e.g. store-s3-field for an S3 bucket. ${inside}`;
}

export function checkDeliveryForm(
  form: DeliveryForm,
  others: readonly DeliveryRequestInput[] = [],
  stores: readonly DeliveryStore[] = [],
): DeliveryCheck {
  const warnings: DeliveryCheck['warnings'] = {};
  const config = form.config.trim();
  const store = stores.find((s) => s.id === config);
  // A URL of another store type cannot land in the chosen store: refused here, not at the flush.
  const misfit = store ? storePathProblem(store, form.path) : null;
  if (config && stores.length > 0 && !store) {
    warnings.config = `Not one of the service's stores (${stores.map(storeLabel).join(', ')}): sent anyway, the service decides.`;
  }
  const path = form.path.trim();
  // Not a domain rule, but our reference service refuses such paths (400).
  if (path.startsWith('/') || path.split(/[\\/]/).includes('..')) {
    warnings.path =
      'Absolute paths and “..” are likely to be refused: give a path inside the location.';
  }
  const parsed = CreateDeliveriesRequest.safeParse(deliveryInput(form, others));
  if (parsed.success && !misfit) return { errors: {}, warnings, payload: parsed.data };
  const errors: DeliveryCheck['errors'] = parsed.success
    ? {}
    : messagesByField(pathIssues(parsed.error.issues), DELIVERY_WORDS);
  if (misfit) errors.path ??= misfit;
  return { errors, warnings, payload: null };
}
