// The Co-Signer thread's entry (client-thread.ts). The sandbox runs from TypeScript under tsx,
// whose loader a worker thread does not inherit: register it here, then load the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./client-worker.ts');
