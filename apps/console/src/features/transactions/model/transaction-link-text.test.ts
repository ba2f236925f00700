import { afterEach, describe, expect, it, vi } from 'vitest';

describe('transactionLinkText', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('gives the path, the whole id as the name and the short id, made once per id', async () => {
    vi.resetModules();
    const { transactionLinkText } = await import('./transaction-link-text');
    const text = transactionLinkText('txn 1/2');
    expect(text).toEqual({
      to: '/transactions/txn%201%2F2',
      label: 'Transaction txn 1/2',
      short: 'txn 1/2',
    });
    expect(transactionLinkText('txn 1/2')).toBe(text);
    const v7 = '0190a5c4-7f3e-7abc-8def-0123456789ab';
    expect(transactionLinkText(v7).short).toBe('…0123456789ab');
  });

  it('makes the texts of rows that arrived in idle time', async () => {
    vi.resetModules();
    const queued: ((deadline: { timeRemaining(): number }) => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: (typeof queued)[number]) => queued.push(run));
    const shortIds = await import('../../../lib/short-id');
    const shortId = vi.spyOn(shortIds, 'shortId');
    const { linkTextsAheadWhenIdle, transactionLinkText } = await import('./transaction-link-text');
    linkTextsAheadWhenIdle([{ id: 'txn_a' }, { id: 'txn_b' }]);
    expect(shortId).not.toHaveBeenCalled();
    queued.shift()?.({ timeRemaining: () => 10 });
    expect(shortId).toHaveBeenCalledTimes(2);
    transactionLinkText('txn_b');
    expect(shortId).toHaveBeenCalledTimes(2);
  });
});
