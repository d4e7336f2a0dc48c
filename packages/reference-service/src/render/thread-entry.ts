/** The render threads' entry module: the service's own job table (`jobs.ts`). */
import { renderJobs } from './jobs';
import { serveJobs } from './thread';

serveJobs(renderJobs);
