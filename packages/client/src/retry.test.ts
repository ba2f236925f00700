import { describe, expect, it } from 'vitest';
import { sleep } from './retry';

describe('sleep', () => {
  it('rejects at once when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
