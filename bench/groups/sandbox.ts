import type { GroupRecorder } from '../lib/report';
import type { BenchContext } from '../run';

export function runSandbox(_ctx: BenchContext, _rec: GroupRecorder): Promise<void> {
  return Promise.reject(new Error('not written yet'));
}
