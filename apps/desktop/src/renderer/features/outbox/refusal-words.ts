/**
 * The service's field problems with a queued create in the words of the form that composes
 * that kind (form-words.ts): "Item 1 › Project: Unknown project" rather than
 * "order items #1 › project id: unknown project". The Outbox screen and the order review say
 * them; the forms put the same problems beside their fields when the entry is edited.
 */
import type { OutboxCreate } from '../../../shared/contract';
import type { PathIssue } from '../../forms/field-issues';
import type { FormWords } from '../../forms/form-words';
// The forms' words modules, not the forms: the Outbox screen loads no form logic to say them.
import { AOI_WORDS } from '../../forms/words/aoi-words';
import { DELIVERY_WORDS } from '../../forms/words/delivery-words';
import { INDEX_WORDS } from '../../forms/words/index-words';
import { VISUALIZATION_WORDS } from '../../forms/words/visualization-words';
import { JOB_WORDS } from '../../forms/words/job-words';
import { ITEM_WORDS, orderPathLabel } from '../../forms/words/order-item-words';

const WORDS: Record<Exclude<OutboxCreate['kind'], 'order'>, FormWords<string>> = {
  aoi: AOI_WORDS as FormWords<string>,
  delivery: DELIVERY_WORDS as FormWords<string>,
  index: INDEX_WORDS as FormWords<string>,
  visualization: VISUALIZATION_WORDS as FormWords<string>,
  job: JOB_WORDS as FormWords<string>,
};

const ORDER_ITEM = /^order_items\.\d+\.?/;

/** One problem as a line: where (in the form's labels), then what, in the form's words. */
export function refusalLine(kind: OutboxCreate['kind'], problem: PathIssue): string {
  const path = problem.path.split('.').filter((p) => p !== '');
  if (kind === 'order') {
    // The item's own words decide the message ("Choose a project"); the path names the item.
    const said = ITEM_WORDS.say({
      path: problem.path.replace(ORDER_ITEM, ''),
      message: problem.message,
    });
    return path.length > 0 ? `${orderPathLabel(path)}: ${said}` : said;
  }
  const words = WORDS[kind];
  const said = words.say(problem);
  return path.length > 0 ? `${words.pathLabel(path)}: ${said}` : said;
}
