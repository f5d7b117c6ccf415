// Worker entry for bench/driver.ts: Node 20 does not pass `--import tsx` on to worker threads.
import { register } from 'tsx/esm/api';

register();
await import('./driver.ts');
