/** Jobs from workflows (spec 2.13). Their timestamp layout is not given; our service writes ISO 8601 Z. */
import { z } from 'zod';
import { Id, IntArray, StringArray } from './common';

const str = z.string().nullish();

export const ValError = z.looseObject({
  from: str,
  to: str,
  err: str,
  reason: str,
  component_name: str,
});
export type ValError = z.infer<typeof ValError>;

export const BlockInfo = z.looseObject({ id: str, name: str, version: str });

export const JobTask = z.looseObject({
  id: Id,
  name: str,
  status: str,
  state_msg: str,
  time_taken: str,
  created_at: str,
  updated_at: str,
  finished_at: str,
  recv_time: str,
  send_time: str,
  block_inf_start_time: str,
  block_inf_end_time: str,
  err_msg: str,
  failure_type: str,
  info_logs: IntArray.nullish(),
  inputs: IntArray.nullish(),
  result: IntArray.nullish(),
  depends_on: StringArray.nullish(),
  disclaimer: StringArray.nullish(),
  estimated_time_duration: z.number().int().nullish(),
  progress: z.number().nullish(),
  block_info: BlockInfo.nullish(),
});
export type JobTask = z.infer<typeof JobTask>;

export const Job = z.looseObject({
  id: Id,
  workflow_id: z.string(),
  created_by: str,
  status: z.string(),
  /** Completion percentage, as a string (spec 2.13). */
  progress: str,
  time_taken: str,
  estimated_duration: z.number().int().nullish(),
  cost: z.number().int().nullish(),
  spec: IntArray.nullish(),
  tasks: z.array(JobTask).nullish(),
  val_errors: z.array(ValError).nullish(),
  created_at: str,
  updated_at: str,
  finished_at: str,
  exec_created_at: str,
  exec_updated_at: str,
});
export type Job = z.infer<typeof Job>;
