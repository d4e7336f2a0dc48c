/**
 * THE typed contract between the renderer and the backend (Electron main or browser mode): each
 * area's `contract.ts` (`src/areas/<area>/`: `app`, `settings`, `connection`, `sync`, `catalog`,
 * `tiles`, `records`, `outbox`, `handover`, `files`, `basket`, `archive`, `rasters`,
 * `packages`) combined here. Every method is `input schema -> output schema`; every event has a
 * payload schema. The backend's dispatch validates every argument with these schemas before
 * anything runs (main only checks the sender and the name and relays), and the tests validate
 * every output. No Node, no DOM here: the renderer, the preload and the backend all import it.
 */
import type { z } from 'zod';
import { appEvents, appMethods } from '../../areas/app/contract';
import { archiveMethods } from '../../areas/archive/contract';
import { basketEvents, basketMethods } from '../../areas/basket/contract';
import { catalogMethods } from '../../areas/catalog/contract';
import { connectionEvents, connectionMethods } from '../../areas/connection/contract';
import { ContractError, issuesOf } from './errors';
import { filesMethods } from '../../areas/files/contract';
import { handoverMethods } from '../../areas/handover/contract';
import { outboxEvents, outboxMethods } from '../../areas/outbox/contract';
import { rastersMethods } from '../../areas/rasters/contract';
import { packagesMethods } from '../../areas/packages/contract';
import { recordsEvents, recordsMethods } from '../../areas/records/contract';
import { settingsMethods } from '../../areas/settings/contract';
import { syncEvents, syncMethods } from '../../areas/sync/contract';
import { tilesMethods } from '../../areas/tiles/contract';

export * from '../../areas/app/contract';
export * from '../../areas/archive/contract';
export * from '../../areas/basket/contract';
export * from '../../areas/catalog/contract';
export * from '../../areas/connection/contract';
export * from './errors';
export * from '../../areas/files/contract';
export * from '../../areas/handover/contract';
export * from './footprints-wire';
export * from '../../areas/outbox/contract';
export * from '../../areas/rasters/contract';
export * from '../../areas/packages/contract';
export * from '../../areas/records/contract';
export * from '../../areas/settings/contract';
export * from '../../areas/sync/contract';
export * from '../../areas/tiles/contract';

export const contract = {
  ...appMethods,
  ...settingsMethods,
  ...connectionMethods,
  ...syncMethods,
  ...catalogMethods,
  ...tilesMethods,
  ...recordsMethods,
  ...outboxMethods,
  ...handoverMethods,
  ...filesMethods,
  ...basketMethods,
  ...archiveMethods,
  ...rastersMethods,
  ...packagesMethods,
} as const;

export const events = {
  ...appEvents,
  ...connectionEvents,
  ...syncEvents,
  ...recordsEvents,
  ...outboxEvents,
  ...basketEvents,
} as const;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type Input<M extends Method> = z.input<Contract[M]['input']>;
export type ParsedInput<M extends Method> = z.output<Contract[M]['input']>;
export type Output<M extends Method> = z.output<Contract[M]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const METHODS = Object.keys(contract) as Method[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

/** Validate a raw argument for `method`; throws ContractError (never passes bad input on). */
export function parseInput<M extends Method>(method: unknown, raw: unknown): ParsedInput<M> {
  if (!isMethod(method)) {
    throw new ContractError('unknown_method', `unknown method: ${String(method).slice(0, 100)}`);
  }
  const parsed = contract[method].input.safeParse(raw);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    throw new ContractError(
      'invalid_argument',
      `invalid argument for ${method}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
      { issues },
    );
  }
  return parsed.data as ParsedInput<M>;
}

/**
 * What the renderer gets: from the preload (`window.eo`) or the HTTP bridge in browser mode.
 * `call` rejects with a ContractError. Note: `window.eo.call` itself rejects with the plain
 * SerializedError data (contextBridge drops error classes); wrap it with `withContractErrors`
 * (errors.ts).
 */
export interface Bridge {
  call<M extends Method>(
    method: M,
    ...input: undefined extends Input<M> ? [Input<M>?] : [Input<M>]
  ): Promise<Output<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
