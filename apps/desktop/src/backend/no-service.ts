/**
 * Why a call that needs the service cannot be made now, in words naming what to change: the
 * user's "Work offline" switch, or no service set up yet.
 */
import { ContractError } from '../shared/contract';

export const NOT_CONFIGURED = 'Enter the service URL and API key in Settings first.';

export const WORKING_OFFLINE =
  'Working offline: nothing is sent to the service. Turn off "Work offline" (on the Sync screen or in Settings) to use it.';

/** The refusal of a call that needs the service when there is no connection to it. */
export function noService(workOffline: boolean): ContractError {
  return workOffline
    ? new ContractError('working_offline', WORKING_OFFLINE)
    : new ContractError('not_configured', NOT_CONFIGURED);
}

/** What a part is told when it finds no connection (default: not set up). */
export type NoService = () => ContractError;

export const notConfigured: NoService = () => noService(false);
