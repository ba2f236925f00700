import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMediaQuery } from './use-media-query';

/** A MediaQueryList double whose `matches` the test sets and announces. */
function fakeList(query: string, matches: boolean) {
  const listeners = new Set<() => void>();
  return {
    media: query,
    matches,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    change(next: boolean) {
      this.matches = next;
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useMediaQuery', () => {
  it('builds one list per query however often it renders, and follows its changes', () => {
    const list = fakeList('(max-width: 1px)', false);
    const matchMedia = vi
      .spyOn(window, 'matchMedia')
      .mockImplementation(() => list as unknown as MediaQueryList);
    const { result, rerender, unmount } = renderHook(() => useMediaQuery('(max-width: 1px)'));
    for (let i = 0; i < 5; i += 1) rerender();
    expect(result.current).toBe(false);
    expect(matchMedia).toHaveBeenCalledTimes(1);

    act(() => {
      list.change(true);
    });
    expect(result.current).toBe(true);
    unmount();
    expect(list.listenerCount()).toBe(0);
  });

  it('reads the list’s live `matches` once per change while subscribed, not on every render', () => {
    let reads = 0;
    let live = false;
    const listeners = new Set<() => void>();
    const list = {
      media: '(max-width: 3px)',
      get matches() {
        reads += 1;
        return live;
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    };
    vi.spyOn(window, 'matchMedia').mockImplementation(() => list as unknown as MediaQueryList);
    const { result, rerender, unmount } = renderHook(() => useMediaQuery('(max-width: 3px)'));
    const afterMount = reads;
    for (let i = 0; i < 20; i += 1) rerender();
    expect(reads).toBe(afterMount);
    expect(result.current).toBe(false);

    act(() => {
      live = true;
      for (const listener of listeners) listener();
    });
    expect(result.current).toBe(true);
    expect(reads).toBe(afterMount + 1);
    unmount();
    expect(listeners.size).toBe(0);
    // Unwatched, the live value is read again.
    live = false;
    const again = renderHook(() => useMediaQuery('(max-width: 3px)'));
    expect(again.result.current).toBe(false);
  });

  it('asks a replaced matchMedia again (another screen) instead of keeping the old answer', () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => fakeList(query, false) as unknown as MediaQueryList,
    );
    const first = renderHook(() => useMediaQuery('(max-width: 2px)'));
    expect(first.result.current).toBe(false);
    first.unmount();
    vi.restoreAllMocks();

    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => fakeList(query, true) as unknown as MediaQueryList,
    );
    const second = renderHook(() => useMediaQuery('(max-width: 2px)'));
    expect(second.result.current).toBe(true);
  });
});
