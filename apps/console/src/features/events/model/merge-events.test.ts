import { describe, expect, it } from 'vitest';
import { mergeEvents } from './merge-events';

describe('mergeEvents', () => {
  it('puts live events first and the history below, each event once', () => {
    const live = [{ id: 'e5' }, { id: 'e4' }, { id: 'e3' }];
    const history = [{ id: 'e3' }, { id: 'e2' }, { id: 'e1' }];
    expect(mergeEvents(live, history).map((e) => e.id)).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);
  });

  it('shows the history alone before any live event arrives', () => {
    expect(mergeEvents([], [{ id: 'a' }, { id: 'b' }]).map((e) => e.id)).toEqual(['a', 'b']);
  });
});
