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
 * Which messages show, what typing clears and how a submit goes is `form-flow.ts`, which the AOI
 * form's and the order composer's stores use too (their drafts outlive the panel and the map
 * draws them, so they are Pinia stores).
 */
import {
  computed,
  nextTick,
  reactive,
  toRefs,
  useTemplateRef,
  watch,
  type ComponentPublicInstance,
} from 'vue';
import type { OutboxCreate } from '../../shared/contract';
import { useOutboxStore } from '../stores/outbox-store';
import { messagesByField, type FieldMessages } from './field-issues';
import { errorSummary, type FormWords } from './form-words';
import {
  emptyFormFlow,
  onFields,
  resetFlow,
  shownErrors,
  submitForm,
  touchFields,
  type FormFlow,
} from './form-flow';

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
  /**
   * The form's words: which field an issue path in the request is (`input.` already dropped),
   * its label, whether it is required, the messages in the form's words.
   */
  readonly words: FormWords<Field>;
  /** The id of each field's control (the error summary's links go there). */
  readonly controls: Readonly<Record<Field, string>>;
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
  const flow = reactive(emptyFormFlow<Field>()) as FormFlow<Field>;
  // A `<FormShell>` (its root is the form) or a plain `<form>`.
  const shell = useTemplateRef<ComponentPublicInstance | HTMLElement>('formEl');
  const formEl = (): HTMLElement | undefined => {
    const el = shell.value;
    return el instanceof HTMLElement ? el : (el?.$el as HTMLElement | undefined);
  };

  const editing = computed(() => (outbox.editing?.kind === options.kind ? outbox.editing : null));
  const check = computed(() => options.check(form));
  const shown = computed(() => shownErrors(check.value.errors, flow, flow.showAll));
  // After a submit: every message shown on a field, at the top, each a link to its field.
  const summary = computed(() =>
    flow.showAll ? errorSummary(shown.value, options.words, (f) => options.controls[f]) : [],
  );

  function reset(values = options.empty()): void {
    Object.assign(form, values);
    resetFlow(flow);
  }

  watch(
    editing,
    async (entry) => {
      if (entry) {
        reset(options.fromInput(entry.input));
        flow.done = null;
        // A refused entry comes back with the service's reasons on its fields.
        const details = entry.lastError?.details ?? [];
        if (details.length > 0) flow.serviceErrors = messagesByField(details, options.words);
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
    return shown.value[field];
  }

  /** The user changed a field: its messages show from now on, the service's is out of date. */
  function touch(field: Field): void {
    touchFields(flow, field);
    flow.done = null;
  }

  async function submit(): Promise<void> {
    const entry = editing.value;
    const payload = check.value.payload;
    await submitForm(
      flow,
      payload,
      async (input) => {
        if (entry) return outbox.saveEdit(entry.id, input);
        const queued = await outbox.enqueue({ kind: options.kind, input } as OutboxCreate);
        reset(options.next?.(form) ?? options.empty());
        return queued;
      },
      // Said from the values as submitted: saving an edit ends it, which empties the form.
      (input) => (entry ? options.done.saved(input, form) : options.done.queued(input, form)),
      onFields(flow, options.words),
    );
    if (payload === null) {
      await nextTick();
      formEl()?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }

  const refs = toRefs(flow);
  return {
    form,
    /** The fields typed in. */
    touched: refs.touched,
    /** True after a submit, until the form starts again. */
    submitted: refs.showAll,
    serverErrors: refs.serviceErrors,
    failure: refs.failure,
    saving: refs.saving,
    done: refs.done,
    editing,
    check,
    summary,
    /** Whether a field is marked required. */
    isRequired: (field: Field) => options.words.isRequired(field),
    errorOf,
    touch,
    submit,
  };
}
