/**
 * `outbox.handoverPlan`, `handOver`, `takeBack`, `receiveHandover`: queued work handed over to
 * another laptop and taken in from one (outbox-handover.ts).
 */
import type { handoverMethods } from './contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { HandoverActions } from '../../backend/outbox-handover';

export type HandoverHandlers = HandlersFor<keyof typeof handoverMethods>;

export function handoverHandlers(actions: HandoverActions): HandoverHandlers {
  return {
    'outbox.handoverPlan': (req) => actions.plan(req?.ids),
    'outbox.handOver': ({ ids }) => actions.handOver(ids),
    'outbox.takeBack': ({ ids }) => actions.takeBack(ids),
    'outbox.receiveHandover': (req) => actions.receive(req),
  };
}
