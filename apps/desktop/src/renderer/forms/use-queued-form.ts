/**
 * The flow a form shares with every other form that queues one create in the outbox (custom
 * index, visualization, delivery, job): its values, checked as the user types (a field's
 * message shows once it was typed in, all of them after a submit), the edit of a queued entry
 * the Outbox screen hands over (`outbox.editing` of the form's kind), and the submit: focus on
 * the first invalid field, or enqueue / save the edit through the outbox, with what the backend
 * refuses beside the same fields and any other failure in words.
 *
 * The component's template names its `<FormShell>` (or `<form>`) `ref="formEl"` (the editing banner takes the
 * focus when an entry is loaded; a refused submit focuses the first invalid field).
 *
 * The AOI form and the order composer are Pinia stores (their drafts outlive the panel and the
 * map draws them), so they keep their own state; they share the issue helpers.
 */
import {
  computed,
  nextTick,
  reactive,
  ref,
  useTemplateRef,
  watch,
  type ComponentPublicInstance,
  type Ref,
} from 'vue';
import type { OutboxCreate } from '../../shared/work';
import { readableError, type ReadableError } from '../stores/errors';
import { useOutboxStore } from '../features/outbox/outbox-store';
import { serverFieldErrors, type FieldMessages, type FieldOf } from './field-issues';

type Kind = OutboxCreate['kind'];
type InputOf<K extends Kind> = Extract<OutboxCreate, { kind: K }>['input'];

/** What a form's check says: a message per field, and the request once nothing is wrong. */
export interface FormCheck<Field extends string, Payload> {
  readonly errors: FieldMessages<Field>;
  readonly payload: Payload | null;
}

export interface QueuedFormOptions<
  K extends Kind,
  Values extends object,
  Field extends string,
  Check extends FormCheck<Field, InputOf<K>>,
> {
  /** The outbox kind it creates; it also edits the queued entries of this kind. */
  readonly kind: K;
  readonly empty: () => Values;
  /** A queued entry's input back into the form's values. */
  readonly fromInput: (input: Record<string, unknown>) => Values;
  /** Everything wrong with the values (re-run whenever what it reads changes). */
  readonly check: (values: Values) => Check;
  /** The form field of an issue path in the request (`input.` already dropped). */
  readonly fieldOf: FieldOf<Field>;
  /** The line said once the create is queued, or the edit saved. */
  readonly done: {
    readonly queued: (payload: InputOf<K>, values: Values) => string;
    readonly saved: (payload: InputOf<K>, values: Values) => string;
  };
  /** What the form starts from after a create was queued (default: empty). */
  readonly next?: (queued: Values) => Values;
  /** Called once a queued entry was loaded into the form. */
  readonly onEdit?: (values: Values) => void;
}

export function useQueuedForm<
  K extends Kind,
  Values extends object,
  Field extends string,
  Check extends FormCheck<Field, InputOf<K>>,
>(options: QueuedFormOptions<K, Values, Field, Check>) {
  const outbox = useOutboxStore();
  const form = reactive(options.empty()) as Values;
  const touched = reactive(new Set<Field>()) as Set<Field>;
  const submitted = ref(false);
  const serverErrors = ref({}) as Ref<FieldMessages<Field>>;
  const failure = ref<ReadableError | null>(null);
  const saving = ref(false);
  const done = ref<string | null>(null);
  // A `<FormShell>` (its root is the form) or a plain `<form>`.
  const shell = useTemplateRef<ComponentPublicInstance | HTMLElement>('formEl');
  const formEl = (): HTMLElement | undefined => {
    const el = shell.value;
    return el instanceof HTMLElement ? el : (el?.$el as HTMLElement | undefined);
  };

  const editing = computed(() => (outbox.editing?.kind === options.kind ? outbox.editing : null));
  const check = computed(() => options.check(form));

  function reset(values = options.empty()): void {
    Object.assign(form, values);
    touched.clear();
    submitted.value = false;
    serverErrors.value = {};
    failure.value = null;
  }

  watch(
    editing,
    async (entry) => {
      if (entry) {
        reset(options.fromInput(entry.input));
        done.value = null;
        options.onEdit?.(form);
        await nextTick();
        formEl()?.querySelector<HTMLElement>('[data-test="editing-banner"]')?.focus();
      } else {
        reset();
      }
    },
    { immediate: true },
  );

  /** The service's word on a field wins; the check's shows once the field was typed in. */
  function errorOf(field: Field): string | undefined {
    const server = serverErrors.value[field];
    if (server) return server;
    return touched.has(field) || submitted.value ? check.value.errors[field] : undefined;
  }

  /** The user changed a field: its messages show from now on, the service's is out of date. */
  function touch(field: Field): void {
    touched.add(field);
    done.value = null;
    if (serverErrors.value[field]) {
      const rest = { ...serverErrors.value };
      delete rest[field];
      serverErrors.value = rest;
    }
  }

  async function submit(): Promise<void> {
    submitted.value = true;
    done.value = null;
    failure.value = null;
    const payload = check.value.payload;
    if (!payload) {
      await nextTick();
      formEl()?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const entry = editing.value;
    // Said from the values as submitted: saving an edit ends it, which empties the form.
    const said = entry ? options.done.saved(payload, form) : options.done.queued(payload, form);
    saving.value = true;
    try {
      if (entry) {
        await outbox.saveEdit(entry.id, payload);
      } else {
        await outbox.enqueue({ kind: options.kind, input: payload } as OutboxCreate);
        reset(options.next?.(form) ?? options.empty());
      }
      done.value = said;
    } catch (err) {
      serverErrors.value = serverFieldErrors(err, options.fieldOf);
      if (Object.keys(serverErrors.value).length === 0) failure.value = readableError(err);
    } finally {
      saving.value = false;
    }
  }

  return {
    form,
    touched,
    submitted,
    serverErrors,
    failure,
    saving,
    done,
    editing,
    check,
    errorOf,
    touch,
    submit,
  };
}
