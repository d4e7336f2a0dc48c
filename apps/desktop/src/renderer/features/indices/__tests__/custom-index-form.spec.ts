import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { indexCreate, lookupsFrom, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useLookupsStore } from '../../../stores/lookups';
import { useOutboxStore } from '../../../stores/outbox-store';
import CustomIndexForm from '../CustomIndexForm.vue';
import { checkIndexForm, emptyIndexForm, indexFormFromInput } from '../index-form';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

const BANDS = ['B02', 'B03', 'B04', 'B08'];

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  bridge.work.lookups = lookupsFrom({
    projectIds: ['prj-demo-crops'],
    bandsetIds: [],
    satellites: [
      // The service's own lists (GET /v0/satellites): a band not in them is refused.
      { id: 'sat-aurora-1', bands: BANDS, bandsListed: true },
      { id: 'sat-borealis-2', bands: ['blue', 'green', 'red', 'nir'], bandsListed: true },
    ],
    workflowIds: [],
  });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountForm(): Promise<VueWrapper> {
  await useLookupsStore().load();
  wrapper = mount(CustomIndexForm, {
    props: { colormaps: ['RdYlGn', 'viridis'] },
    attachTo: document.body,
  });
  await flushPromises();
  return wrapper;
}

const field = (w: VueWrapper, name: string) => w.find(`[name="${name}"]`);
const errorOf = (w: VueWrapper, name: string) => w.find(`#idx-${name}-error`).text();
const lastEnqueue = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue').at(-1);

async function fillValid(w: VueWrapper): Promise<void> {
  await field(w, 'name').setValue('NDVI (field team)');
  await field(w, 'description').setValue('Vegetation vigour');
  await field(w, 'satellite_id').setValue('sat-aurora-1');
  await field(w, 'expression_type').setValue('index');
  await field(w, 'expression').setValue('(B08 - B04) / (B08 + B04)');
  await field(w, 'rescale').setValue('-1, 1');
  await field(w, 'colormap').setValue('RdYlGn');
}

describe('custom index form', () => {
  it('speaks the form’s words: quiet until used, required marked, summary on submit', async () => {
    const w = await mountForm();
    const form = w.find('form');
    expectQuiet(form);
    expect(requiredControls(form)).toEqual([
      'idx-name',
      'idx-satellite_id',
      'idx-expression',
      'idx-rescale',
      'idx-colormap',
    ]);
    expect(await expectSummaryOnSubmit(form, () => form.trigger('submit'))).toEqual([
      'Name: Enter a name',
      'Satellite: Choose a satellite',
      'Expression: Enter an expression, e.g. (B08 - B04) / (B08 + B04)',
      'Rescale: Enter the rescale range, e.g. -1, 1',
      'Colormap: Choose a colormap',
    ]);
  });

  it('checks the expression as it is typed and points at the offending character', async () => {
    const w = await mountForm();
    await field(w, 'satellite_id').setValue('sat-aurora-1');
    const expr = field(w, 'expression');
    await expr.setValue('(B08 - ) / B04');
    expect(w.find('[data-test="expression-error"]').text()).toBe('unexpected ")" at position 8');
    expect(w.find('[data-test="expression-caret"]').element.textContent).toBe(
      '(B08 - ) / B04\n       ^',
    );
    expect(expr.attributes('aria-invalid')).toBe('true');
    // "Go to the problem" selects the character in the input.
    await w.find('[data-test="goto-problem"]').trigger('click');
    const input = expr.element as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([7, 8]);

    await expr.setValue('(B08 - B04) / (B08 + B04');
    expect(w.find('[data-test="expression-error"]').text()).toBe('expected ")" at position 25');
    expect(w.find('[data-test="expression-caret"]').element.textContent).toBe(
      `(B08 - B04) / (B08 + B04\n${' '.repeat(24)}^`,
    );

    await expr.setValue('(B08 - B04) / (B08 + B04)');
    expect(w.find('[data-test="expression-error"]').text()).toBe('');
    expect(w.find('[data-test="expression-caret"]').exists()).toBe(false);
    expect(expr.attributes('aria-invalid')).toBe('false');
    // As the browser lays it out: runs of white space are one space.
    expect(w.find('[data-test="expression-bands"]').text().replace(/\s+/g, ' ')).toBe(
      'Uses B08, B04. The satellite has B02, B03, B04, B08.',
    );
  });

  it('names a band the satellite does not have and lists the ones it has', async () => {
    const w = await mountForm();
    await field(w, 'satellite_id').setValue('sat-aurora-1');
    await field(w, 'expression').setValue('(B08 - B99) / (B08 + B99)');
    expect(w.find('[data-test="expression-error"]').text()).toBe(
      'unknown band B99; this satellite has B02, B03, B04, B08',
    );
    expect(w.find('[data-test="expression-bands"]').text()).toContain('B99 (unknown)');
    // Another satellite, other bands: the same expression is judged against them.
    await field(w, 'satellite_id').setValue('sat-borealis-2');
    expect(w.find('[data-test="expression-error"]').text()).toBe(
      'unknown bands B08, B99; this satellite has blue, green, red, nir',
    );
  });

  // Issue 17 item 13: B05 of sat-aurora-1 was "unknown" because no mirrored index used it.
  it('takes bands guessed from mirrored records as a warning, never a rejection', async () => {
    bridge.work.lookups = lookupsFrom({
      satellites: [{ id: 'sat-aurora-1', bands: ['B04', 'B08'], bandsListed: false }],
    });
    const w = await mountForm();
    await fillValid(w);
    await field(w, 'expression').setValue('(B08 - B05) / (B08 + B05)');
    expect(w.find('[data-test="expression-error"]').text()).toBe('');
    expect(w.find('[data-test="expression-warning"]').text()).toBe(
      "B05 is not among the bands seen here for sat-aurora-1 (seen: B04, B08). The service's list of its bands is not known here: it decides.",
    );
    const bands = w.find('[data-test="expression-bands"]').text().replace(/\s+/g, ' ');
    expect(bands).toBe(
      'Uses B08, B05 (not seen here). Bands seen here for this satellite: B04, B08.',
    );
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toMatchObject({
      kind: 'index',
      input: { satellite_id: 'sat-aurora-1', expression: '(B08 - B05) / (B08 + B05)' },
    });
  });

  it("accepts every band of the service's list for the satellite (B05 of Aurora)", async () => {
    bridge.work.lookups = lookupsFrom({
      satellites: [
        {
          id: 'sat-aurora-1',
          bands: ['B01', 'B02', 'B03', 'B04', 'B05', 'B08', 'B11', 'B12'],
          bandsListed: true,
        },
      ],
    });
    const w = await mountForm();
    await fillValid(w);
    await field(w, 'expression').setValue('(B08 - B05) / (B08 + B05)');
    expect(w.find('[data-test="expression-error"]').text()).toBe('');
    expect(w.find('[data-test="expression-warning"]').exists()).toBe(false);
    await field(w, 'expression').setValue('(B08 - B07) / (B08 + B07)');
    expect(w.find('[data-test="expression-error"]').text()).toContain('unknown band B07');
  });

  it('only warns about a satellite it does not know, and still queues', async () => {
    const w = await mountForm();
    await fillValid(w);
    await field(w, 'satellite_id').setValue('sat-new-9');
    expect(w.find('[data-test="satellite-warning"]').text()).toBe(
      'sat-new-9 is not among the satellites seen here (sat-aurora-1, sat-borealis-2): its bands cannot be checked, the service decides.',
    );
    expect(w.find('[data-test="expression-error"]').text()).toBe('');
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toMatchObject({
      kind: 'index',
      input: { satellite_id: 'sat-new-9' },
    });
  });

  it('requires 3 components for a composite', async () => {
    const w = await mountForm();
    await field(w, 'satellite_id').setValue('sat-aurora-1');
    await field(w, 'expression_type').setValue('composite');
    await field(w, 'expression').setValue('B04, B03');
    expect(w.find('[data-test="expression-error"]').text()).toBe(
      'a composite expression has 3 comma-separated components (red, green, blue), found 2',
    );
    await field(w, 'expression').setValue('B04, B03, B02');
    expect(w.find('[data-test="expression-error"]').text()).toBe('');
    await field(w, 'expression_type').setValue('grayscale');
    expect(w.find('[data-test="expression-error"]').text()).toBe(
      'a grayscale expression has a single component, found 3 separated by commas',
    );
  });

  it('checks rescale values are integers', async () => {
    const w = await mountForm();
    await field(w, 'rescale').setValue('0, 2.5');
    expect(errorOf(w, 'rescale')).toBe('Rescale values are whole numbers');
    await field(w, 'rescale').setValue('0, abc');
    expect(errorOf(w, 'rescale')).toBe('“abc” is not a number');
    await field(w, 'rescale').setValue('0 255');
    expect(errorOf(w, 'rescale')).toBe('');
  });

  it('shows every problem on submit and sends nothing', async () => {
    const w = await mountForm();
    expect(errorOf(w, 'name')).toBe(''); // not before the user did anything
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(errorOf(w, 'name')).toBe('Enter a name');
    expect(errorOf(w, 'satellite_id')).toBe('Choose a satellite');
    expect(errorOf(w, 'rescale')).toBe('Enter the rescale range, e.g. -1, 1');
    expect(errorOf(w, 'colormap')).toBe('Choose a colormap');
    expect(w.find('[data-test="expression-error"]').text()).toBe(
      'Enter an expression, e.g. (B08 - B04) / (B08 + B04)',
    );
    expect(lastEnqueue()).toBeUndefined();
    expect(document.activeElement).toBe(field(w, 'name').element);
  });

  it('queues exactly the domain request, then starts afresh', async () => {
    const w = await mountForm();
    await fillValid(w);
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'index',
      input: {
        name: 'NDVI (field team)',
        description: 'Vegetation vigour',
        rescale: [-1, 1],
        expression: '(B08 - B04) / (B08 + B04)',
        colormap: 'RdYlGn',
        satellite_id: 'sat-aurora-1',
        expression_type: 'index',
        type: 'custom',
      },
    });
    expect(w.find('[data-test="form-done"]').text()).toBe(
      'Queued: “NDVI (field team)” is sent with the next batch.',
    );
    expect((field(w, 'name').element as HTMLInputElement).value).toBe('');
    expect(useOutboxStore().unsent('index')).toHaveLength(1);
  });

  it("puts the service's field messages beside the fields", async () => {
    const w = await mountForm();
    await fillValid(w);
    bridge.failWith(
      'outbox.enqueue',
      new ContractError('invalid_argument', 'invalid', {
        issues: [
          { path: 'input.name', message: 'An index with this name exists' },
          { path: 'input.expression', message: 'Division by a constant zero' },
        ],
      }),
    );
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(errorOf(w, 'name')).toBe('An index with this name exists');
    expect(w.find('[data-test="expression-error"]').text()).toBe('Division by a constant zero');
    // Typing in the field clears the service's message about it.
    await field(w, 'name').setValue('NDVI 2');
    expect(errorOf(w, 'name')).toBe('');
  });

  it('edits a queued index from the outbox and saves it with outbox.edit', async () => {
    const entry = await queue(bridge, indexCreate('Red edge'));
    const outbox = useOutboxStore();
    await outbox.refresh();
    outbox.startEdit(outbox.byId.get(entry.id)!);
    const w = await mountForm();
    expect(w.find('h2').text()).toBe('Edit the queued index');
    expect(w.find('[data-test="editing-banner"]').text()).toContain('Index · Red edge');
    expect(document.activeElement).toBe(w.find('[data-test="editing-banner"]').element);
    expect((field(w, 'name').element as HTMLInputElement).value).toBe('Red edge');
    expect((field(w, 'rescale').element as HTMLInputElement).value).toBe(
      (entry.input['rescale'] as number[]).join(', '),
    );
    await field(w, 'name').setValue('Red edge v2');
    await w.find('form').trigger('submit');
    await flushPromises();
    const edit = bridge.calls.find((c) => c.method === 'outbox.edit');
    expect(edit?.input).toEqual({ id: entry.id, input: { ...entry.input, name: 'Red edge v2' } });
    expect(outbox.editing).toBeNull();
    expect(w.find('h2').text()).toBe('New custom index');

    // "Cancel editing" leaves the entry as it was.
    outbox.startEdit(outbox.byId.get(entry.id)!);
    await flushPromises();
    await w
      .findAll('button')
      .find((b) => b.text() === 'Cancel editing')!
      .trigger('click');
    await flushPromises();
    expect(outbox.editing).toBeNull();
    expect((field(w, 'name').element as HTMLInputElement).value).toBe('');
  });
});

describe('index form data', () => {
  it('round-trips a queued input', () => {
    const input = {
      name: 'X',
      description: 'd',
      rescale: [0, 255],
      expression: 'B04',
      colormap: 'gray',
      satellite_id: 's',
      expression_type: 'grayscale',
      type: 'custom',
    };
    const form = indexFormFromInput(input);
    expect(form.rescale).toBe('0, 255');
    expect(
      checkIndexForm(form, () => ({ bands: ['B04'], bandsListed: true }), ['s']).payload,
    ).toEqual(input);
    expect(indexFormFromInput({ expression_type: 'nonsense' }).expression_type).toBe('index');
  });

  it('has no payload while anything is wrong', () => {
    const check = checkIndexForm(emptyIndexForm(), () => null, []);
    expect(check.payload).toBeNull();
    expect(check.errors.name).toBe('Enter a name');
  });
});
