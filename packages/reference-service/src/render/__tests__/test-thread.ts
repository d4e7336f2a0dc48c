/** Entry of the pool tests' threads: the service's jobs and the misbehaving ones. */
import { serveJobs } from '../thread';
import { testJobs } from './test-jobs';

serveJobs(testJobs);
