import { describe, expect, it, vi } from 'vitest';
import { abortError, Cancellation, onAbort } from './cancellation';
import { sleep } from './retry';

describe('Cancellation, an abort signal that dies young', () => {
  it('aborts once and keeps the first reason', () => {
    const cancel = new Cancellation();
    const heard = vi.fn();
    onAbort(cancel, heard);
    const first = new Error('browser left');
    cancel.abort(first);
    cancel.abort(new Error('later'));
    expect(cancel.aborted).toBe(true);
    expect(cancel.reason).toBe(first);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(abortError(cancel)).toBe(first);
  });

  it('listens to a Cancellation and to a standard AbortSignal alike, and stops when told', () => {
    for (const make of [
      () => {
        const cancel = new Cancellation();
        return {
          signal: cancel,
          abort: () => {
            cancel.abort(new Error('stop'));
          },
        };
      },
      () => {
        const controller = new AbortController();
        return {
          signal: controller.signal,
          abort: () => {
            controller.abort(new Error('stop'));
          },
        };
      },
    ]) {
      const kept = make();
      const dropped = make();
      const heardKept = vi.fn();
      const heardDropped = vi.fn();
      onAbort(kept.signal, heardKept);
      onAbort(dropped.signal, heardDropped)();
      kept.abort();
      dropped.abort();
      expect(heardKept).toHaveBeenCalledTimes(1);
      expect(heardDropped).not.toHaveBeenCalled();
    }
  });

  it('gives a plain Error when the reason is not one', () => {
    const cancel = new Cancellation();
    cancel.abort('gone');
    expect(abortError(cancel)).toEqual(new Error('aborted'));
  });

  it('cuts a retry back-off short with its reason, and leaves no listener behind', async () => {
    const cancel = new Cancellation();
    const waiting = sleep(60_000, cancel);
    const reason = new Error('browser left');
    cancel.abort(reason);
    await expect(waiting).rejects.toBe(reason);

    const untouched = new Cancellation();
    await sleep(1, untouched);
    expect(untouched.listenerCount('abort')).toBe(0);
  });
});
