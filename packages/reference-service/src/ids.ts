/** Identifiers: a readable prefix plus a random UUID (ids are strings in the spec). */
import { randomUUID } from 'node:crypto';

export type IdPrefix =
  | 'ord'
  | 'oi'
  | 'tsk'
  | 'cat'
  | 'aoi'
  | 'ast'
  | 'vis'
  | 'idx'
  | 'dlv'
  | 'dl'
  | 'job'
  | 'jt'
  | 'key'
  | 'usr'
  | 'org'
  | 'prj';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomUUID()}`;
}
