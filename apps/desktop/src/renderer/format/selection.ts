/**
 * The actions that take the catalog's selection, in words: never "Use the 0 records selected"
 * (with none selected the button is disabled and says why beside it).
 */
export const NO_SELECTION_REASON = 'Select records on the Catalog screen first.';

/** "Use the 2 records selected in the catalog"; with none: "Use records selected in the catalog". */
export function selectionAction(verb: 'Use' | 'Add', count: number): string {
  if (count <= 0) return `${verb} records selected in the catalog`;
  return `${verb} the ${count} record${count === 1 ? '' : 's'} selected in the catalog`;
}
