import { CreateJobCall } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/contract';
import { contractIssues, messagesByField, pathIssues, serverFieldErrors } from '../field-issues';

const topLevel = (path: readonly string[]) =>
  path[0] === 'name' || path[0] === 'project_id' ? path[0] : null;

const refused = (...issues: Array<{ path: string; message: string }>) =>
  new ContractError('invalid_argument', 'bad input', { issues });

describe('messagesByField', () => {
  it('keeps the first message per field and puts the rest under form, path in words', () => {
    expect(
      messagesByField(
        [
          { path: 'name', message: 'name is required' },
          { path: 'name', message: 'name is too long' },
          { path: 'order_items.0.bandset', message: 'unknown bandset' },
          { path: 'project_id', message: 'unknown project' },
        ],
        topLevel,
      ),
    ).toEqual({
      name: 'name is required',
      project_id: 'unknown project',
      form: 'order items #1 › bandset: unknown bandset',
    });
  });

  it('says an issue of the whole request as its message alone', () => {
    expect(messagesByField([{ path: '', message: 'too many requests' }], topLevel)).toEqual({
      form: 'too many requests',
    });
  });

  it('reads zod issues through pathIssues', () => {
    const parsed = CreateJobCall.safeParse({ workflow_id: '', project_id: '' });
    expect(parsed.success).toBe(false);
    const issues = pathIssues(parsed.error!.issues);
    expect(messagesByField(issues, (p) => (p[0] === 'workflow_id' ? 'workflow' : null))).toEqual({
      workflow: 'workflow_id is required',
      form: 'project id: project_id is required',
    });
  });
});

describe('serverFieldErrors', () => {
  it('places the backend issues without their input. prefix', () => {
    const err = refused(
      { path: 'input.name', message: 'name is taken' },
      { path: 'input', message: 'input must be an object' },
      { path: 'input.colour', message: 'not a field' },
    );
    expect(serverFieldErrors(err, topLevel)).toEqual({
      name: 'name is taken',
      form: 'input must be an object',
    });
    expect(serverFieldErrors(refused({ path: 'input.colour', message: 'x' }), topLevel)).toEqual({
      form: 'colour: x',
    });
  });

  it('is empty for an error that is not about the input', () => {
    expect(serverFieldErrors(new ContractError('offline', 'unreachable'), topLevel)).toEqual({});
    expect(contractIssues(new Error('boom'))).toEqual([]);
  });
});
