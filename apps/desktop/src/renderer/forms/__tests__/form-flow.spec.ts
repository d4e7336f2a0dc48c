import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/contract';
import {
  emptyFormFlow,
  onFields,
  resetFlow,
  shownErrors,
  submitForm,
  touchFields,
} from '../form-flow';

type Field = 'name' | 'project';
const fieldOf = (path: readonly string[]): Field | null =>
  path[0] === 'name' || path[0] === 'project' ? path[0] : null;

describe('shownErrors', () => {
  it('shows a check message once its field was typed in, all after a submit, the service first', () => {
    const flow = emptyFormFlow<Field>();
    const local = { name: 'name is required', project: 'project is required', form: 'whole' };
    expect(shownErrors(local, flow, false)).toEqual({});
    expect(shownErrors(local, flow, false, ['form'])).toEqual({ form: 'whole' });
    touchFields(flow, 'name');
    expect(shownErrors(local, flow, false)).toEqual({ name: 'name is required' });
    flow.serviceErrors = { name: 'taken' };
    expect(shownErrors(local, flow, true)).toEqual({
      name: 'taken',
      project: 'project is required',
      form: 'whole',
    });
  });
});

describe('touchFields', () => {
  it('marks the fields typed in and drops what the service said of them only', () => {
    const flow = emptyFormFlow<Field>();
    flow.serviceErrors = { name: 'taken', project: 'unknown', form: 'whole' };
    touchFields(flow, 'name');
    expect(flow.touched).toEqual({ name: true });
    expect(flow.serviceErrors).toEqual({ project: 'unknown', form: 'whole' });
  });
});

describe('submitForm', () => {
  it('sends nothing while the check fails, and shows every message', async () => {
    const flow = emptyFormFlow<Field>();
    const saved: string[] = [];
    const r = await submitForm(
      flow,
      null as string | null,
      async (p) => saved.push(p),
      () => 'x',
      onFields(flow, fieldOf),
    );
    expect(r).toBeNull();
    expect(saved).toEqual([]);
    expect(flow.showAll).toBe(true);
    expect(flow.done).toBeNull();
  });

  it('saves, saying the line from the payload as submitted; saving only while it runs', async () => {
    const flow = emptyFormFlow<Field>();
    let savingDuring = false;
    const r = await submitForm(
      flow,
      { name: 'a' },
      async (p) => {
        savingDuring = flow.saving;
        resetFlow(flow);
        return `id-${p.name}`;
      },
      (p) => `Queued ${p.name}.`,
      onFields(flow, fieldOf),
    );
    expect(r).toBe('id-a');
    expect(savingDuring).toBe(true);
    expect(flow.saving).toBe(false);
    expect(flow.done).toBe('Queued a.');
  });

  it('puts a refusal on its fields and any other failure in words', async () => {
    const flow = emptyFormFlow<Field>();
    const refused = new ContractError('invalid_argument', 'refused', {
      issues: [{ path: 'input.project', message: 'unknown project' }],
    });
    const place = onFields(flow, fieldOf);
    await submitForm(
      flow,
      1,
      () => Promise.reject(refused),
      () => 'x',
      place,
    );
    expect(flow.serviceErrors).toEqual({ project: 'unknown project' });
    expect(flow.failure).toBeNull();

    await submitForm(
      flow,
      1,
      () => Promise.reject(new ContractError('internal', 'disk full')),
      () => 'x',
      place,
    );
    expect(flow.failure?.message).toContain('disk full');
    expect(flow.serviceErrors).toEqual({ project: 'unknown project' });
    expect(flow.done).toBeNull();
  });
});

describe('resetFlow', () => {
  it('forgets what was typed and said, and keeps the done line', () => {
    const flow = emptyFormFlow<Field>();
    touchFields(flow, 'name');
    Object.assign(flow, { showAll: true, done: 'Queued a.', serviceErrors: { name: 'x' } });
    resetFlow(flow);
    expect(flow).toMatchObject({
      touched: {},
      serviceErrors: {},
      showAll: false,
      done: 'Queued a.',
    });
  });
});
