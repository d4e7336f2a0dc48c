/**
 * The actions that take the catalog's basket, in words: never "Use the 0 records in the basket"
 * (with an empty basket the button is disabled and says why beside it).
 */
export const NO_SELECTION_REASON = 'Put records in the basket on the Catalog screen first.';

/** "Use the 2 records in the basket"; with none: "Use records in the basket". */
export function selectionAction(verb: 'Use' | 'Add', count: number): string {
  if (count <= 0) return `${verb} records in the basket`;
  return `${verb} the ${count} record${count === 1 ? '' : 's'} in the basket`;
}
