import { describeArgumentChecks } from '../../__tests__/argument-checks';
import { outboxMethods } from '../contract';

describeArgumentChecks('outbox', outboxMethods, {
  'outbox.list': { good: { states: ['queued', 'failed'] }, bad: { states: [] }, path: 'states' },
  'outbox.enqueue': {
    good: { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
    bad: { kind: 'job', input: { workflow_id: 'wf-cloud-mask' } },
    path: 'input.project_id',
  },
  'outbox.enqueueAll': {
    good: {
      creates: [
        { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
      ],
    },
    bad: {
      creates: [
        { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
        { kind: 'job', input: { workflow_id: 'wf-cloud-mask' } },
      ],
    },
    path: 'creates.1.input.project_id',
  },
  'outbox.edit': { good: { id: 'e1', input: { name: 'x' } }, bad: { id: 'e1' }, path: 'input' },
  'outbox.retry': { good: { id: 'e1' }, bad: { id: '' }, path: 'id' },
  'outbox.cancel': { good: { id: 'e1' }, bad: {}, path: 'id' },
  'outbox.confirm': {
    good: { id: 'e1', remoteId: 'job-1' },
    bad: { id: 'e1', remoteId: '' },
    path: 'remoteId',
  },
  'outbox.resend': { good: { id: 'e1' }, bad: { id: 7 }, path: 'id' },
  'outbox.flush': { good: undefined, bad: { now: true }, path: '' },
  'outbox.reviewOrders': { good: undefined, bad: { all: true }, path: '' },
  'outbox.sendOrders': {
    good: { orders: [{ id: 'e1', updatedAt: '2026-11-25T10:00:00.000Z', total: 12.5 }] },
    bad: { orders: [] },
    path: 'orders',
  },
});
