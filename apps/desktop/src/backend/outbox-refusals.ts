/**
 * The outbox's refusals said in the contract's words: an `OutboxInputError` is an
 * `invalid_argument` whose issue paths are the contract's own (`input.field`, or
 * `creates.N.input.field` for a batch), an `OutboxStateError` a `conflict`.
 */
import { OutboxInputError, OutboxStateError } from '@eo/sync';
import { ContractError, type ContractIssue } from '../shared/contract';

function refused(prefix: string, issues: ContractIssue[]): ContractError {
  return new ContractError(
    'invalid_argument',
    `${prefix}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}

/** `fn`, its refusals as contract errors (one create: paths under `input.`). */
export function asContractErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OutboxInputError) {
      const issues = e.details.map((d) => ({
        path: d.path ? `input.${d.path}` : 'input',
        message: d.message,
        ...(d.fix ? { fix: { order_items: [...d.fix.order_items] } } : {}),
      }));
      throw refused('Not queued', issues);
    }
    if (e instanceof OutboxStateError) throw new ContractError('conflict', e.message);
    throw e;
  }
}

/** `fn` queueing several creates, the one refused named by its place (`creates.N.input.`). */
export function asBatchRefusal<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof OutboxInputError)) throw e;
    const issues = e.details.map((d) => {
      const [, k, rest] = /^(\d+)(?:\.(.*))?$/.exec(d.path) ?? [];
      const path = k === undefined ? 'creates' : `creates.${k}.input${rest ? `.${rest}` : ''}`;
      return { path, message: d.message };
    });
    throw refused('Nothing queued', issues);
  }
}
