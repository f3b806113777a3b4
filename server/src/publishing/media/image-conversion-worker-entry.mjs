// Entry of a conversion worker thread: Node 20 does not apply the parent's `--import tsx` to a worker's first
// module, so this plain module registers tsx and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./image-conversion-worker.ts');
