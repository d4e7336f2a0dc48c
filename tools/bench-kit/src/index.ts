export { LINKS, linkFloorMs, startLink } from './link';
export type { Link, LinkCounters, LinkProfile } from './link';
export {
  jsonAnswer,
  offsetOf,
  rewriteJson,
  startMisbehavingProxy,
  truncated,
  withJson,
} from './misbehaving-proxy';
export type {
  Exchange,
  LoggedRequest,
  MisbehavingProxy,
  Outcome,
  ProxiedRequest,
  Reply,
  Rule,
  Upstream,
} from './misbehaving-proxy';
export { checkMet, formatCheck, isSmoke, median, reportVerdict } from './verdict';
export type { Check } from './verdict';
