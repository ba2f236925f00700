import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { Transaction } from '@settlement/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { screenIs } from '../../../test/screen-width';
import {
  confirmedTrx,
  decimalsFor,
  failedBeforeBroadcast,
  revertedUsdt,
  withStatus,
} from '../transaction-fixtures';
import { StatusBadge } from '../../../components/ui/badge';
import { Time } from '../../../components/ui/time';
import { TransactionsTable } from './transactions-table';

// A row's created and status cells render one Time and one StatusBadge: counting their renders
// counts the cells React rendered again.
vi.mock('../../../components/ui/time', async (importOriginal) => {
  const actual = await importOriginal<{ Time: typeof Time }>();
  return { Time: vi.fn(actual.Time) };
});
vi.mock('../../../components/ui/badge', async (importOriginal) => {
  const actual = await importOriginal<
    Record<string, unknown> & { StatusBadge: typeof StatusBadge }
  >();
  return { ...actual, StatusBadge: vi.fn(actual.StatusBadge) };
});

// jsdom lays nothing out: give the virtualizer's scroll box a size so it renders rows.
beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1024);
});
afterAll(() => {
  vi.restoreAllMocks();
});

function renderTable(transactions: Parameters<typeof TransactionsTable>[0]['transactions']) {
  return renderWithApp(
    <TransactionsTable
      transactions={transactions}
      decimalsFor={decimalsFor}
      hasNextPage={false}
      isFetchingNextPage={false}
      onLoadMore={() => undefined}
    />,
  );
}

type List = Parameters<typeof TransactionsTable>[0]['transactions'];

/** The table inside a parent that can hand it a new list, as a query update does. */
function renderTableWithRerender(initial: List) {
  let setList: (list: List) => void = () => undefined;
  function Parent() {
    const [list, set] = useState(initial);
    setList = set;
    return (
      <TransactionsTable
        transactions={list}
        decimalsFor={decimalsFor}
        hasNextPage={false}
        isFetchingNextPage={false}
        onLoadMore={() => undefined}
      />
    );
  }
  renderWithApp(<Parent />);
  return {
    rerenderWithApp: (list: List) => {
      act(() => {
        setList(list);
      });
    },
  };
}

function rowOf(id: string): HTMLElement {
  const link = screen.getByRole('link', { name: `Transaction ${id}` });
  const row = link.closest('tr');
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

describe('TransactionsTable', () => {
  it('shows FAILED and FAILED_ON_CHAIN amounts as not debited, struck and unsigned', async () => {
    renderTable([confirmedTrx, failedBeforeBroadcast, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_failed' });
    for (const id of ['tx_failed', 'tx_reverted']) {
      const row = within(rowOf(id));
      expect(row.getByText('not debited')).toBeInTheDocument();
      const amount = row.getByTitle(/atomic units/);
      expect(amount).toHaveClass('line-through');
      expect(amount.textContent).not.toMatch(/^-/);
    }
    const confirmed = within(rowOf('tx_confirmed'));
    expect(confirmed.queryByText('not debited')).not.toBeInTheDocument();
    expect(confirmed.getByTitle('-20000000 atomic units')).not.toHaveClass('line-through');
  });

  it('says "not credited" for a failed credit leg', async () => {
    renderTable([withStatus(failedBeforeBroadcast, { direction: 'CREDIT' })]);
    expect(await screen.findByText('not credited')).toBeInTheDocument();
  });

  it('aligns every amount of the column on the decimal point of the catalog decimals', async () => {
    renderTable([confirmedTrx, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    expect(within(rowOf('tx_confirmed')).getByText('-20')).toHaveStyle({ paddingRight: '7ch' });
    expect(within(rowOf('tx_reverted')).getByText('250.5')).toHaveStyle({
      paddingRight: '5ch',
    });
  });

  it('badges every row on a testnet, and none on mainnet', async () => {
    renderTable([confirmedTrx, withStatus(revertedUsdt, { chain: 'tron:mainnet' })]);
    await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    expect(within(rowOf('tx_confirmed')).getByText('Nile testnet')).toBeInTheDocument();
    expect(within(rowOf('tx_reverted')).queryByText('Nile testnet')).not.toBeInTheDocument();
  });

  it('renders again only the cells whose values changed, in the row whose transaction did', async () => {
    const { rerenderWithApp } = renderTableWithRerender([confirmedTrx, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    vi.mocked(Time).mockClear();
    vi.mocked(StatusBadge).mockClear();
    rerenderWithApp([withStatus(confirmedTrx, { status: 'FAILED' }), revertedUsdt]);
    await within(rowOf('tx_confirmed')).findByText('not debited');
    // The changed row's status cell rendered again; its created cell and the other row did not.
    expect(vi.mocked(StatusBadge)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(StatusBadge)).toHaveBeenCalledWith({ status: 'FAILED' }, undefined);
    expect(vi.mocked(Time)).not.toHaveBeenCalled();
  });
});

/** The table's row height, as its virtualizer counts it (transactions-table.tsx). */
const ROW_PX = 60;

/**
 * Renders 200 transactions (tx_000..tx_199) and returns the scroll region with a way to scroll
 * it: jsdom does no layout, so the region's scrollTop is set by hand and its scroll event sent.
 */
async function scrollableTable(extra: (i: number) => Partial<Transaction> = () => ({})) {
  const many = Array.from({ length: 200 }, (_, i) =>
    withStatus(confirmedTrx, { id: `tx_${String(i).padStart(3, '0')}`, ...extra(i) }),
  );
  renderTable(many);
  await screen.findByRole('link', { name: 'Transaction tx_000' });
  const region = screen.getByRole('region', { name: 'Transactions (scrollable)' });
  let scrollTop = 0;
  Object.defineProperty(region, 'scrollTop', { get: () => scrollTop, configurable: true });
  /** Scrolls to `px` and waits until the row of transaction number `shown` is on screen. */
  const scrollTo = async (px: number, shown: number) => {
    scrollTop = px;
    act(() => {
      region.dispatchEvent(new Event('scroll'));
    });
    await screen.findByRole('link', { name: `Transaction tx_${String(shown).padStart(3, '0')}` });
  };
  return { region, scrollTo, scrollToRow: (row: number) => scrollTo(ROW_PX * row, row) };
}

describe('TransactionsTable while scrolling', () => {
  it('hands its row elements new transactions instead of creating new rows', async () => {
    const { region, scrollToRow } = await scrollableTable();
    await scrollToRow(50);
    const before = new Set(region.querySelectorAll('tbody tr[aria-rowindex]'));

    // One long jump: every row on screen now shows another transaction.
    await scrollToRow(120);
    expect(screen.queryByRole('link', { name: 'Transaction tx_050' })).not.toBeInTheDocument();
    const after = [...region.querySelectorAll('tbody tr[aria-rowindex]')];
    expect(after).toHaveLength(before.size);
    expect(after.every((row) => before.has(row))).toBe(true);
  });

  it('neither moves nor re-creates row elements, also when the number of rows on screen changes', async () => {
    const { region, scrollTo } = await scrollableTable();
    const rows = () => [...region.querySelectorAll('tbody tr[aria-rowindex]')];
    await scrollTo(ROW_PX * 50, 50);
    const before = rows();
    const added: Node[] = [];
    const removed: Node[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        added.push(...[...record.addedNodes].filter((n) => n.nodeName === 'TR'));
        removed.push(...[...record.removedNodes].filter((n) => n.nodeName === 'TR'));
      }
    });
    const body = region.querySelector('tbody');
    if (!body) throw new Error('no tbody');
    observer.observe(body, { childList: true });

    // A short step (most rows stay on screen), then a long jump to half a row's offset, where
    // a part of one more row is on screen (11.5 rows fit the box).
    await scrollTo(ROW_PX * 53, 53);
    await scrollTo(ROW_PX * 120 + ROW_PX / 2, 120);
    await act(() => Promise.resolve());
    observer.disconnect();
    const after = rows();
    expect(after).toEqual(before);
    expect(removed).toHaveLength(0);
    expect(added).toHaveLength(0);
  });

  it('hands the rows’ copy buttons the new references instead of creating new buttons', async () => {
    const { region, scrollToRow } = await scrollableTable((i) => ({ clientReference: `ref-${i}` }));
    const buttons = () => within(region).getAllByRole('button', { name: 'Copy client reference' });
    await scrollToRow(50);
    const before = new Set(buttons());
    await scrollToRow(120);
    expect(within(region).queryByTitle('ref-50')).not.toBeInTheDocument();
    expect(buttons().every((button) => before.has(button))).toBe(true);
  });
});

describe('TransactionsTable links', () => {
  it('opens a transaction and an account in the app on a plain click', async () => {
    const { router } = renderTable([confirmedTrx]);
    const link = await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    expect(link).toHaveAttribute('href', '/transactions/tx_confirmed');
    const user = userEvent.setup();
    await user.click(link);
    expect(router.state.location.pathname).toBe('/transactions/tx_confirmed');
    await user.click(screen.getByRole('link', { name: confirmedTrx.account.name ?? '' }));
    expect(router.state.location.pathname).toBe(`/accounts/${confirmedTrx.account.id}`);
  });

  it('leaves a click with a modifier to the browser (new tab or window)', async () => {
    const { router } = renderTable([confirmedTrx]);
    const link = await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    let wasPrevented: boolean | null = null;
    const record = (event: Event) => {
      wasPrevented = event.defaultPrevented;
      // jsdom cannot open a tab: stop it here, after the table had its say.
      event.preventDefault();
    };
    document.addEventListener('click', record);
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true }));
    document.removeEventListener('click', record);
    expect(wasPrevented).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('TransactionsTable when new rows arrive at the top', () => {
  it('keeps keyboard focus on the transaction it was on, in the row that shows it now', async () => {
    const { rerenderWithApp } = renderTableWithRerender([confirmedTrx, revertedUsdt]);
    const link = await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    link.focus();
    const newest = withStatus(confirmedTrx, { id: 'tx_newest' });
    const newer = withStatus(confirmedTrx, { id: 'tx_newer' });
    rerenderWithApp([newest, newer, confirmedTrx, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_newest' });
    // The row element that had focus now shows tx_newest; focus went with tx_confirmed.
    expect(document.activeElement).toHaveAccessibleName('Transaction tx_confirmed');
    expect(document.activeElement).toBe(
      screen.getByRole('link', { name: 'Transaction tx_confirmed' }),
    );
  });

  it('keeps following its transaction after the window lost focus and got it back', async () => {
    const { rerenderWithApp } = renderTableWithRerender([confirmedTrx, revertedUsdt]);
    const link = await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    link.focus();
    // The window blurs (another app): the link's focusout has no related target, and the
    // document keeps the link as its focused element.
    link.dispatchEvent(new FocusEvent('focusout', { bubbles: true, relatedTarget: null }));
    rerenderWithApp([withStatus(confirmedTrx, { id: 'tx_newest' }), confirmedTrx, revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_newest' });
    expect(document.activeElement).toBe(
      screen.getByRole('link', { name: 'Transaction tx_confirmed' }),
    );
  });

  it('lets go of focus when its transaction leaves the rows on screen', async () => {
    const { rerenderWithApp } = renderTableWithRerender([confirmedTrx, revertedUsdt]);
    const link = await screen.findByRole('link', { name: 'Transaction tx_confirmed' });
    link.focus();
    rerenderWithApp([withStatus(confirmedTrx, { id: 'tx_other' }), revertedUsdt]);
    await screen.findByRole('link', { name: 'Transaction tx_other' });
    expect(document.activeElement).toBe(document.body);
  });
});

describe('TransactionsTable on a phone-sized screen', () => {
  beforeAll(() => {
    screenIs('phone');
  });

  it('stacks each transaction as a card with every column and both links, and no table', async () => {
    renderTable([withStatus(confirmedTrx, { clientReference: 'ref-42' }), revertedUsdt]);
    const card = await screen.findByRole('article', { name: 'Transaction tx_confirmed' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Transactions' })).toBeInTheDocument();
    const facts = within(card);
    expect(facts.getByRole('link', { name: 'Transaction tx_confirmed' })).toHaveAttribute(
      'href',
      '/transactions/tx_confirmed',
    );
    expect(facts.getByRole('link', { name: confirmedTrx.account.name ?? '' })).toHaveAttribute(
      'href',
      `/accounts/${confirmedTrx.account.id}`,
    );
    expect(facts.getByText('CONFIRMED')).toBeInTheDocument();
    expect(facts.getByText('Nile testnet')).toBeInTheDocument();
    expect(facts.getByTitle('-20000000 atomic units')).toBeInTheDocument();
    expect(facts.getByText('Created').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'dateTime',
      confirmedTrx.createdAt,
    );
    expect(facts.getByText('Reference').nextElementSibling).toHaveTextContent('ref-42');
    expect(
      within(screen.getByRole('article', { name: 'Transaction tx_reverted' })).getByText(
        'not debited',
      ),
    ).toBeInTheDocument();
  });
});
