import { CreateJobCall } from '@eo/domain';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { ContractError } from '../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../__tests__/memory-bridge';
import { jobCreate, queue } from '../../__tests__/work-fixtures';
import { provideBridge } from '../../stores/bridge-provider';
import { useOutboxStore } from '../../stores/outbox-store';
import { messagesByField, pathIssues } from '../field-issues';
import { formWords } from '../form-words';
import { useQueuedForm } from '../use-queued-form';

interface Values {
  workflow: string;
  project: string;
}
type Field = keyof Values;

const FIELD_OF_PATH: Record<string, Field> = { workflow_id: 'workflow', project_id: 'project' };
const fieldOf = (path: readonly string[]): Field | null => FIELD_OF_PATH[path[0] ?? ''] ?? null;
const words = formWords<Field>({
  fieldOf,
  fields: {
    workflow: { label: 'Workflow', required: 'Choose a workflow' },
    project: { label: 'Project', required: 'Choose a project' },
  },
});

function checkValues(v: Values) {
  const parsed = CreateJobCall.safeParse({ workflow_id: v.workflow.trim(), project_id: v.project });
  return parsed.success
    ? { errors: {}, payload: parsed.data }
    : { errors: messagesByField(pathIssues(parsed.error.issues), words), payload: null };
}

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;
let edited: Values[];
let flow: ReturnType<typeof useQueuedForm<'job', Values, Field, ReturnType<typeof checkValues>>>;

/** The smallest form that uses the flow: two inputs, the banner while editing. */
const TestForm = defineComponent({
  setup() {
    flow = useQueuedForm({
      kind: 'job',
      empty: () => ({ workflow: '', project: '' }),
      fromInput: (input) => ({
        workflow: String(input['workflow_id'] ?? ''),
        project: String(input['project_id'] ?? ''),
      }),
      check: checkValues,
      words,
      controls: { workflow: 'f-workflow', project: 'f-project' },
      done: {
        queued: (p, v) => `Queued ${p.workflow_id} (${v.workflow})`,
        saved: (p) => `Saved ${p.workflow_id}`,
      },
      next: (queued) => ({ workflow: '', project: queued.project }),
      onEdit: (values) => edited.push({ ...values }),
    });
    const input = (field: Field) =>
      h('input', {
        id: `f-${field}`,
        name: field,
        value: flow.form[field],
        'aria-invalid': String(Boolean(flow.errorOf(field))),
        onInput: (e: Event) => {
          flow.form[field] = (e.target as HTMLInputElement).value;
          flow.touch(field);
        },
      });
    return () =>
      h('form', { ref: 'formEl', onSubmit: (e: Event) => (e.preventDefault(), flow.submit()) }, [
        flow.editing.value
          ? h('div', { 'data-test': 'editing-banner', tabindex: -1, class: 'banner' })
          : null,
        input('workflow'),
        input('project'),
      ]);
  },
});

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  edited = [];
  wrapper = mount(TestForm, { attachTo: document.body });
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const enqueued = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue');

describe('useQueuedForm', () => {
  it('shows a field’s message once typed in, all on submit, and focuses the first invalid', async () => {
    expect(flow.errorOf('workflow')).toBeUndefined();
    await wrapper!.find('input[name="project"]').setValue('prj-1');
    await wrapper!.find('input[name="project"]').setValue('');
    expect(flow.errorOf('project')).toBe('Choose a project');
    expect(flow.errorOf('workflow')).toBeUndefined();
    expect(flow.summary.value).toEqual([]);

    await flow.submit();
    await flushPromises();
    expect(flow.errorOf('workflow')).toBe('Choose a workflow');
    // The summary, in the form's order, each line pointing at its field's control.
    expect(flow.summary.value).toEqual([
      { field: 'workflow', target: 'f-workflow', text: 'Workflow: Choose a workflow' },
      { field: 'project', target: 'f-project', text: 'Project: Choose a project' },
    ]);
    expect(document.activeElement).toBe(wrapper!.find('input[name="workflow"]').element);
    expect(enqueued()).toEqual([]);
  });

  it('queues the checked request, says so and starts again from next()', async () => {
    flow.form.workflow = ' wf-a ';
    flow.form.project = 'prj-1';
    await flow.submit();
    expect(enqueued().map((c) => c.input)).toEqual([
      { kind: 'job', input: { workflow_id: 'wf-a', project_id: 'prj-1' } },
    ]);
    expect(flow.done.value).toBe('Queued wf-a ( wf-a )');
    expect({ ...flow.form }).toEqual({ workflow: '', project: 'prj-1' });
    expect(flow.submitted.value).toBe(false);
    expect(flow.errorOf('workflow')).toBeUndefined();
    expect(flow.saving.value).toBe(false);
  });

  it('puts the backend’s refusal on the fields; typing in a field drops its message', async () => {
    flow.form.workflow = 'wf-a';
    flow.form.project = 'prj-1';
    bridge.failWith(
      'outbox.enqueue',
      new ContractError('invalid_argument', 'refused', {
        issues: [
          { path: 'input.project_id', message: 'unknown project' },
          { path: 'input.priority', message: 'not allowed' },
        ],
      }),
    );
    await flow.submit();
    expect(flow.errorOf('project')).toBe('Unknown project');
    expect(flow.serverErrors.value.form).toBe('Priority: Not allowed');
    expect(flow.failure.value).toBeNull();
    expect(flow.form.project).toBe('prj-1');

    flow.touch('project');
    expect(flow.errorOf('project')).toBeUndefined();
    expect(flow.serverErrors.value.form).toBe('Priority: Not allowed');
  });

  it('an entry the service refused comes back with its reasons on the fields, in words', async () => {
    const entry = await queue(bridge, jobCreate('wf-old', 'prj-2'));
    const refused = {
      ...entry,
      state: 'failed' as const,
      lastError: {
        kind: 'rejected',
        status: 400,
        message: 'refused',
        details: [{ path: 'project_id', message: 'project_id is required' }],
      },
    };
    useOutboxStore().startEdit(refused);
    await flushPromises();
    expect(flow.errorOf('project')).toBe('Choose a project');
    flow.touch('project');
    expect(flow.errorOf('project')).toBeUndefined();
  });

  it('says any other failure in words and keeps the values', async () => {
    flow.form.workflow = 'wf-a';
    flow.form.project = 'prj-1';
    bridge.failWith('outbox.enqueue', new ContractError('internal', 'disk full'));
    await flow.submit();
    expect(flow.serverErrors.value).toEqual({});
    expect(flow.failure.value?.message).toContain('disk full');
    expect(flow.done.value).toBeNull();
    expect({ ...flow.form }).toEqual({ workflow: 'wf-a', project: 'prj-1' });
  });

  it('edits a queued entry of its kind and saves it with outbox.edit', async () => {
    const entry = await queue(bridge, jobCreate('wf-old', 'prj-2'));
    const outbox = useOutboxStore();
    outbox.startEdit(entry);
    await flushPromises();
    expect({ ...flow.form }).toEqual({ workflow: 'wf-old', project: 'prj-2' });
    expect(edited).toEqual([{ workflow: 'wf-old', project: 'prj-2' }]);
    expect(document.activeElement).toBe(wrapper!.find('.banner').element);

    flow.form.workflow = 'wf-new';
    await flow.submit();
    await flushPromises();
    const edit = bridge.calls.find((c) => c.method === 'outbox.edit')?.input;
    expect(edit).toEqual({ id: entry.id, input: { workflow_id: 'wf-new', project_id: 'prj-2' } });
    expect(flow.done.value).toBe('Saved wf-new');
    expect(outbox.editing).toBeNull();
    expect({ ...flow.form }).toEqual({ workflow: '', project: '' });
  });

  it('leaves entries of other kinds to their own forms', async () => {
    const entry = await bridge.call('outbox.enqueue', {
      kind: 'visualization',
      input: { aoi_id: 'aoi-1', index_id: 'idx-1', src_asset_ids: ['a-1'] },
    });
    useOutboxStore().startEdit(entry);
    await flushPromises();
    expect(flow.editing.value).toBeNull();
    expect(edited).toEqual([]);
  });
});
