export { LINKS, linkFloorMs, startLink } from './link';
export type { Link, LinkCounters, LinkProfile } from './link';
export { checkMet, formatCheck, isSmoke, median, reportVerdict } from './verdict';
export type { Check } from './verdict';
