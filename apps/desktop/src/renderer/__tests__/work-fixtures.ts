/**
 * Test support for the part-2 screens: queue creates in the memory bridge's outbox as the
 * backend would (through the contract, validated), with readable names, and a bridge whose
 * "Submit all" waits until the test lets it go (to look at the screen while a batch runs).
 */
import {
  buildCreateAoiRequest,
  buildCreateIndexRequest,
  buildTaskingOrderItemInput,
} from '@eo/domain/testing';
import type { Bridge, Lookups, OutboxCreate, OutboxEntryView } from '../../shared/contract';
import type { MemoryBridge } from './memory-bridge';

export function queue(bridge: MemoryBridge, create: OutboxCreate): Promise<OutboxEntryView> {
  return bridge.call('outbox.enqueue', create);
}

export const aoiCreate = (name: string, satellite = 'sat-aurora-1'): OutboxCreate => ({
  kind: 'aoi',
  input: { ...buildCreateAoiRequest(), name, satellite_id: satellite },
});

export const indexCreate = (name: string, satellite = 'sat-aurora-1'): OutboxCreate => ({
  kind: 'index',
  input: {
    ...buildCreateIndexRequest(),
    name,
    satellite_id: satellite,
    expression: '(B08 - B04) / (B08 + B04)',
    expression_type: 'index',
    type: 'custom',
  },
});

export const orderCreate = (...itemNames: string[]): OutboxCreate => ({
  kind: 'order',
  input: {
    order_items: itemNames.map((name, i) => buildTaskingOrderItemInput({ name }, { seed: i + 1 })),
  },
});

export const jobCreate = (workflow: string, project = 'prj-demo-crops'): OutboxCreate => ({
  kind: 'job',
  input: { workflow_id: workflow, project_id: project },
});

export interface GatedBridge extends Bridge {
  /** Lets the held `outbox.flush` call go on. */
  release(): void;
}

/** The same bridge, but `outbox.flush` waits for `release()`. */
export function gateFlush(bridge: MemoryBridge): GatedBridge {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    on: bridge.on.bind(bridge),
    call: ((method: string, input?: unknown) =>
      method === 'outbox.flush'
        ? gate.then(() =>
            (bridge.call as (m: string, i?: unknown) => Promise<unknown>)(method, input),
          )
        : (bridge.call as (m: string, i?: unknown) => Promise<unknown>)(
            method,
            input,
          )) as Bridge['call'],
    release: () => open(),
  };
}

/**
 * Lookups as the backend gives them, from ids (names null unless given) and satellites with
 * bands: `bandsListed` false (guessed from records) unless said. With `listed`, the service gave
 * these ids (`serviceIds`: forms flag any other); without, it gave no lists.
 */
export function lookupsFrom(known: {
  projectIds?: string[];
  bandsetIds?: string[];
  workflowIds?: string[];
  satellites?: Array<{
    id: string;
    bands: string[];
    bandsListed?: boolean;
    providers?: string[];
    collections?: Array<{ id: string; name: string | null }>;
  }>;
  names?: Record<string, string>;
  listed?: boolean;
}): Lookups {
  const choice = (id: string) => ({ id, name: known.names?.[id] ?? null });
  const projectIds = known.projectIds ?? [];
  const bandsetIds = known.bandsetIds ?? [];
  const workflowIds = known.workflowIds ?? [];
  return {
    projectIds,
    bandsetIds,
    workflowIds,
    projects: projectIds.map(choice),
    bandsets: bandsetIds.map((id) => ({ ...choice(id), satelliteId: null, bands: [] })),
    workflows: workflowIds.map(choice),
    satellites: (known.satellites ?? []).map((s) => ({
      ...choice(s.id),
      bands: s.bands,
      bandsListed: s.bandsListed ?? false,
      providers: s.providers ?? [],
      collections: s.collections ?? [],
    })),
    cloudConfigs: [],
    stores: [],
    serviceIds: known.listed
      ? {
          projects: projectIds,
          bandsets: bandsetIds,
          satellites: (known.satellites ?? []).map((s) => s.id),
          workflows: workflowIds,
        }
      : { projects: [], bandsets: [], satellites: [], workflows: [] },
  };
}
