/**
 * The flow every form shares, whatever holds its values (a component's `useQueuedForm`, the AOI
 * form's store, the order composer's store): which messages show (a field's once it was typed
 * in, all of them after a submit, the service's word first), what typing in a field clears,
 * and the submit (refused at once while the check fails; else saving, then the line said when
 * done, or what was refused beside its fields, or any other failure in words).
 *
 * The state is plain data, so it can live in a Pinia store's state or in `reactive()`; the
 * functions change it in place.
 */
import type { ReadableError } from '../stores/errors';
import { readableError } from '../stores/errors';
import { serverFieldErrors, type FieldMessages, type FieldOf } from './field-issues';
import type { FormWords } from './form-words';

/** What one set of fields knows: which were typed in, and what the service said of them. */
export interface FieldState<Field extends string> {
  touched: Partial<Record<Field, true>>;
  serviceErrors: FieldMessages<Field>;
}

/** What a form's submit knows. */
export interface SubmitState {
  /** After a submit every message shows, typed in or not. */
  showAll: boolean;
  saving: boolean;
  /** A failure that is about no field (offline, unauthorized...). */
  failure: ReadableError | null;
  /** The line said once it is queued or saved. */
  done: string | null;
}

export type FormFlow<Field extends string> = FieldState<Field> & SubmitState;

export function emptyFieldState<Field extends string>(): FieldState<Field> {
  return { touched: {}, serviceErrors: {} };
}

export function emptySubmitState(): SubmitState {
  return { showAll: false, saving: false, failure: null, done: null };
}

export function emptyFormFlow<Field extends string>(): FormFlow<Field> {
  return { ...emptyFieldState<Field>(), ...emptySubmitState() };
}

/**
 * What the fields show: the service's word on a field; else the check's message once the field
 * was typed in, or after a submit (`always`: fields whose message shows at once).
 */
export function shownErrors<Field extends string>(
  local: FieldMessages<Field>,
  fields: FieldState<Field>,
  showAll: boolean,
  always: ReadonlyArray<Field | 'form'> = [],
): FieldMessages<Field> {
  const shown: FieldMessages<Field> = {};
  for (const [field, message] of Object.entries(local) as Array<[Field | 'form', string]>) {
    const typed = field !== 'form' && fields.touched[field];
    if (showAll || typed || always.includes(field)) shown[field] = message;
  }
  return { ...shown, ...fields.serviceErrors };
}

/** The user changed these fields: their messages show from now on, the service's are stale. */
export function touchFields<Field extends string>(
  fields: FieldState<Field>,
  ...changed: readonly Field[]
): void {
  const touched = { ...fields.touched };
  let service: FieldMessages<Field> | null = null;
  for (const field of changed) {
    touched[field] = true;
    if (fields.serviceErrors[field] !== undefined) {
      service ??= { ...fields.serviceErrors };
      delete service[field];
    }
  }
  fields.touched = touched;
  if (service) fields.serviceErrors = service;
}

/** Places the service's refusal on the fields; false when it names none (a failure then). */
export type PlaceRefusal = (err: unknown) => boolean;

/** The refusal on the fields `fieldOf` knows (`input.` already dropped), in the form's words. */
export function onFields<Field extends string>(
  fields: FieldState<Field>,
  fieldOf: FieldOf<Field> | FormWords<Field>,
): PlaceRefusal {
  return (err) => {
    const messages = serverFieldErrors(err, fieldOf);
    if (Object.keys(messages).length === 0) return false;
    fields.serviceErrors = messages;
    return true;
  };
}

/**
 * Submit: with no payload (the check fails) every message shows and nothing is sent; else
 * `save` runs while `saving`, and `done` says `said` (computed before: saving may empty the
 * form). A refusal goes where `place` puts it, anything else is the failure. Returns what
 * `save` returned, or null.
 */
export async function submitForm<Payload, Result>(
  state: SubmitState,
  payload: Payload | null,
  save: (payload: Payload) => Promise<Result>,
  said: (payload: Payload) => string,
  place: PlaceRefusal,
): Promise<Result | null> {
  state.showAll = true;
  state.done = null;
  state.failure = null;
  if (payload === null) return null;
  const line = said(payload);
  state.saving = true;
  try {
    const result = await save(payload);
    state.done = line;
    return result;
  } catch (err) {
    if (!place(err)) state.failure = readableError(err);
    return null;
  } finally {
    state.saving = false;
  }
}

/**
 * Back to a fresh form: nothing typed in, no messages. The done line stays (it speaks of what
 * was just saved, and saving an edit resets the form); a form clears it where it must.
 */
export function resetFlow<Field extends string>(flow: FormFlow<Field>): void {
  flow.touched = {};
  flow.serviceErrors = {};
  flow.showAll = false;
  flow.failure = null;
}
