import type { Transaction } from '@settlement/protocol';
import type { ReactNode, RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  createContext,
  memo,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
import { useHref, useNavigate } from 'react-router';
import { Amount } from '../../../components/ui/amount';
import { StatusBadge } from '../../../components/ui/badge';
import { ChainBadge } from '../../../components/ui/chain-badge';
import { CopyableId } from '../../../components/ui/copy-button';
import { Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatAheadWhenIdle } from '../../../lib/format-time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { isFailedStatus } from '../model/funds-outcome';
import { linkTextsAheadWhenIdle, transactionLinkText } from '../model/transaction-link-text';

const ROW_HEIGHT = 60;
/** One object for every row: a new one per row per render was garbage on each scroll step. */
const ROW_STYLE = { height: ROW_HEIGHT };

export function typeLabel(transaction: Pick<Transaction, 'type'>): string {
  return transaction.type.replaceAll('_', ' ').toLowerCase();
}

/** Signed display: debits show a minus. */
function signedAtomic(
  transaction: Pick<Transaction, 'amountAtomic' | 'signedAmountAtomic' | 'direction'>,
): string {
  if (transaction.signedAmountAtomic) return transaction.signedAmountAtomic;
  return transaction.direction === 'DEBIT'
    ? `-${transaction.amountAtomic}`
    : transaction.amountAtomic;
}

type RowAmountProps = {
  transaction: Pick<
    Transaction,
    'amountAtomic' | 'signedAmountAtomic' | 'direction' | 'asset' | 'status'
  >;
  decimals: number | null;
  alignDecimals: number;
};

/**
 * The amount of one row. A failed transaction never moved its amount, so it is struck through,
 * without sign and in neutral grey, and says so in words: it must not read as a real debit.
 */
function RowAmount({ transaction, decimals, alignDecimals }: RowAmountProps) {
  if (!isFailedStatus(transaction.status)) {
    return (
      <Amount
        atomic={signedAtomic(transaction)}
        decimals={decimals}
        asset={transaction.asset}
        alignDecimals={alignDecimals}
      />
    );
  }
  return (
    <span className="inline-flex flex-col items-end leading-tight">
      <Amount
        atomic={transaction.amountAtomic}
        decimals={decimals}
        asset={transaction.asset}
        alignDecimals={alignDecimals}
        className="text-slate-500 line-through"
      />
      <span className="text-xs text-slate-600">
        {transaction.direction === 'CREDIT' ? 'not credited' : 'not debited'}
      </span>
    </span>
  );
}

function sameAmount(a: RowAmountProps, b: RowAmountProps): boolean {
  return (
    a.decimals === b.decimals &&
    a.alignDecimals === b.alignDecimals &&
    a.transaction.amountAtomic === b.transaction.amountAtomic &&
    a.transaction.signedAmountAtomic === b.transaction.signedAmountAtomic &&
    a.transaction.direction === b.transaction.direction &&
    a.transaction.asset === b.transaction.asset &&
    a.transaction.status === b.transaction.status
  );
}

type RowProps = {
  transaction: Transaction;
  decimals: number | null;
  alignDecimals: number;
};

/** The router's base (its basename), that the rows' plain anchors put before their paths. */
const HrefBase = createContext('');

/**
 * An in-app link of a row: a plain anchor, followed by the one click listener of the list
 * (`useRowLinkNavigation`). A router `Link` runs several hooks per link: with two per row and
 * every visible row handed a new transaction on each scroll step, they were a third of the
 * rows' render time (profiled while scrolling 10,000 rows).
 */
function RowLink({
  to,
  className,
  label,
  title,
  children,
}: {
  to: string;
  className: string;
  label?: string;
  title?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={`${use(HrefBase)}${to}`}
      data-to={to}
      className={className}
      aria-label={label}
      title={title}
    >
      {children}
    </a>
  );
}

/**
 * Follows a plain left click (or Enter) on a row link inside `ref` in the app, as a router
 * `Link` does; a click with a modifier or another button keeps the browser's behaviour (new
 * tab, new window, download).
 */
function useRowLinkNavigation(ref: RefObject<HTMLElement | null>) {
  const navigate = useNavigate();
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[data-to]') : null;
      if (!(link instanceof HTMLAnchorElement) || !element.contains(link)) return;
      const to = link.dataset.to;
      if (to === undefined) return;
      event.preventDefault();
      void navigate(to);
    };
    element.addEventListener('click', onClick);
    return () => {
      element.removeEventListener('click', onClick);
    };
  }, [ref, navigate]);
}

/**
 * Rows are reused by slot (see the table's keys): when new rows push a slot onto another
 * transaction, a link focused in it would now open that other transaction. Focus follows its
 * transaction to the row that shows it now, onto the same control, and leaves only when that
 * transaction is no longer on screen. Where focus is gets noted when it enters a control; each
 * commit then checks it once for the whole table, instead of an effect in every row on every
 * scroll step.
 */
function useFocusFollowsTransaction(ref: RefObject<HTMLElement | null>) {
  const noted = useRef<{ transactionId: string; position: number } | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onFocusIn = (event: FocusEvent) => {
      const control = event.target;
      const row = control instanceof HTMLElement ? control.closest('tr') : null;
      const transactionId = row?.dataset.transactionId;
      noted.current =
        row && control instanceof HTMLElement && transactionId !== undefined
          ? { transactionId, position: focusables(row).indexOf(control) }
          : null;
    };
    // Not cleared on focusout: the window losing focus (another app, another tab) blurs the
    // link too, and rows that arrive meanwhile must still take focus along when it comes back.
    // A focus that left the table is never followed: the check below asks it to be inside.
    element.addEventListener('focusin', onFocusIn);
    return () => {
      element.removeEventListener('focusin', onFocusIn);
    };
  }, [ref]);
  // After every commit; every row has its new content by then.
  useLayoutEffect(() => {
    const focus = noted.current;
    const focused = document.activeElement;
    if (!focus || !(focused instanceof HTMLElement) || ref.current?.contains(focused) !== true) {
      return;
    }
    const row = focused.closest('tr');
    if (!row || row.dataset.transactionId === focus.transactionId) return;
    const target = [...(row.parentElement?.children ?? [])].find(
      (other) =>
        other instanceof HTMLElement && other.dataset.transactionId === focus.transactionId,
    );
    const control = target instanceof HTMLElement ? focusables(target)[focus.position] : undefined;
    if (control) control.focus({ preventScroll: true });
    else focused.blur();
  });
}

function TransactionLink({ id }: { id: string }) {
  const text = transactionLinkText(id);
  return (
    <RowLink
      to={text.to}
      className="font-mono text-xs font-medium text-indigo-700 hover:underline"
      label={text.label}
    >
      {text.short}
    </RowLink>
  );
}

function AccountLink({ id, name }: { id: string; name: string | null | undefined }) {
  return (
    <RowLink
      to={`/accounts/${encodeURIComponent(id)}`}
      className="text-indigo-700 hover:underline"
      // The column is narrow at 1440 px and clips a long name; the whole name on hover.
      title={name ?? id}
    >
      {name ?? id}
    </RowLink>
  );
}

/**
 * The rows' memo comparisons name their props: React's own lists both props objects' keys,
 * two arrays per memoized element per render, ~10% of what a scroll step allocated (sampled
 * scrolling 2,000 rows), and every young-generation collection lands in some step's listener.
 */
function sameAccount(
  a: { id: string; name: string | null | undefined },
  b: { id: string; name: string | null | undefined },
): boolean {
  return a.id === b.id && a.name === b.name;
}

function Reference({ value }: { value: string | null | undefined }) {
  return value ? (
    // Not keyed by the value: a row reused for another transaction hands its copy button the
    // new value (it says "Copy" again) instead of creating another button on each scroll step.
    <CopyableId value={value} label="client reference" isShort />
  ) : (
    <span className="text-slate-500">—</span>
  );
}

/** "internal transfer" -> "Internal Transfer", as CSS `capitalize` shows it, without its own element. */
function capitalized(label: string): string {
  return label.replace(/\b\w/g, (c) => c.toUpperCase());
}

/**
 * The type as text and, on its own line, the chain's testnet badge: no wrapper elements (one
 * row has many). Two lines keep the column narrow enough for every column to fit at 1440 px.
 */
function TypeAndChain({ type, chain }: { type: Transaction['type']; chain: string }) {
  return (
    <>
      {capitalized(typeLabel({ type }))}
      <br />
      <ChainBadge chain={chain} />
    </>
  );
}

/** The controls of a row a keyboard reaches, in order. */
function focusables(row: HTMLElement): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>('a[href], button')];
}

/*
 * The table's cells, each memoized on the plain values it shows, its <td> included: a row
 * reused for another transaction renders again only the cells whose values differ (rows of a
 * list repeat their type, status, asset and account a lot), and a cell that stays creates no
 * element at all. Each young-generation collection that falls inside a scroll step's listeners
 * makes that frame's callback late: scrolling 10,000 rows allocated 36 KB a step with the
 * memoized parts inside plain cells, 30 KB so (sampled, BENCHMARKS.md).
 */

const CreatedCell = memo(
  function CreatedCell({ value }: { value: string }) {
    return (
      <td className="px-3 py-1">
        <Time value={value} />
      </td>
    );
  },
  (a, b) => a.value === b.value,
);

const TransactionCell = memo(
  function TransactionCell({ id }: { id: string }) {
    return (
      <td className="px-3 py-1 whitespace-nowrap">
        <TransactionLink id={id} />
      </td>
    );
  },
  (a, b) => a.id === b.id,
);

const TypeCell = memo(
  function TypeCell({ type, chain }: { type: Transaction['type']; chain: string }) {
    return (
      <td className="px-3 py-1 whitespace-nowrap">
        <TypeAndChain type={type} chain={chain} />
      </td>
    );
  },
  (a, b) => a.type === b.type && a.chain === b.chain,
);

const StatusCell = memo(
  function StatusCell({ status }: { status: string }) {
    return (
      <td className="px-3 py-1 whitespace-nowrap">
        <StatusBadge status={status} />
      </td>
    );
  },
  (a, b) => a.status === b.status,
);

const AmountCell = memo(function AmountCell({
  transaction,
  decimals,
  alignDecimals,
}: RowAmountProps) {
  return (
    <td className="px-3 py-1 text-right">
      <RowAmount transaction={transaction} decimals={decimals} alignDecimals={alignDecimals} />
    </td>
  );
}, sameAmount);

const AccountCell = memo(function AccountCell({
  id,
  name,
}: {
  id: string;
  name: string | null | undefined;
}) {
  return (
    <td className="truncate px-3 py-1">
      <AccountLink id={id} name={name} />
    </td>
  );
}, sameAccount);

const ReferenceCell = memo(
  function ReferenceCell({ value }: { value: string | null | undefined }) {
    return (
      <td className="truncate px-3 py-1">
        <Reference value={value} />
      </td>
    );
  },
  (a, b) => a.value === b.value,
);

/**
 * One table row. Memoized: a row re-renders only when its transaction (kept by identity
 * through the list's structural sharing) or the column's decimals change, not on every scroll
 * step or list update.
 */
const TableRow = memo(function TableRow({
  transaction,
  decimals,
  alignDecimals,
  rowIndex,
}: RowProps & { rowIndex: number }) {
  return (
    <tr
      data-transaction-id={transaction.id}
      aria-rowindex={rowIndex}
      className="border-b border-slate-100 hover:bg-slate-50"
      style={ROW_STYLE}
    >
      <CreatedCell value={transaction.createdAt} />
      <TransactionCell id={transaction.id} />
      <TypeCell type={transaction.type} chain={transaction.chain} />
      <StatusCell status={transaction.status} />
      <AmountCell transaction={transaction} decimals={decimals} alignDecimals={alignDecimals} />
      <AccountCell id={transaction.account.id} name={transaction.account.name} />
      <ReferenceCell value={transaction.clientReference} />
    </tr>
  );
}, sameRow);

function sameRow(a: RowProps & { rowIndex: number }, b: RowProps & { rowIndex: number }): boolean {
  return (
    a.transaction === b.transaction &&
    a.decimals === b.decimals &&
    a.alignDecimals === b.alignDecimals &&
    a.rowIndex === b.rowIndex
  );
}

/**
 * One transaction as a card, for phone-sized screens: the same seven facts and both links as
 * a table row, stacked, so nothing scrolls sideways.
 */
const Card = memo(function Card({ transaction, decimals, alignDecimals }: RowProps) {
  return (
    <article
      aria-label={`Transaction ${transaction.id}`}
      className="space-y-1.5 border-b border-slate-100 px-4 py-3 text-sm"
    >
      <div className="flex items-center justify-between gap-2">
        <TransactionLink id={transaction.id} />
        <StatusBadge status={transaction.status} />
      </div>
      <div className="flex items-start justify-between gap-2">
        <span className="flex flex-wrap items-center gap-1.5">
          <TypeAndChain type={transaction.type} chain={transaction.chain} />
        </span>
        <RowAmount transaction={transaction} decimals={decimals} alignDecimals={alignDecimals} />
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs text-slate-600">
        <dt>Created</dt>
        <dd className="text-slate-800">
          <Time value={transaction.createdAt} />
        </dd>
        <dt>Account</dt>
        <dd className="truncate">
          <AccountLink id={transaction.account.id} name={transaction.account.name} />
        </dd>
        <dt>Reference</dt>
        <dd className="min-w-0">
          <Reference value={transaction.clientReference} />
        </dd>
      </dl>
    </article>
  );
});

const CARD_HEIGHT = 136;

/** The table's columns; their widths are the fixed layout's (see the table below). */
const COLUMNS: { label: string; className?: string }[] = [
  { label: 'Created', className: 'w-56' },
  { label: 'Transaction', className: 'w-40' },
  { label: 'Type', className: 'w-36' },
  { label: 'Status', className: 'w-40' },
  { label: 'Amount', className: 'w-56 text-right' },
  { label: 'Account' },
  { label: 'Reference', className: 'w-32' },
];

/**
 * The same element on every render: the table renders again on every scroll step, and React
 * skips an element it was given before instead of rendering its seven header cells again.
 */
const TABLE_HEAD = (
  <thead className="sticky top-0 z-10">
    <tr>
      {COLUMNS.map(({ label, className }) => (
        <Th key={label} isCompact className={className}>
          {label}
        </Th>
      ))}
    </tr>
  </thead>
);

/**
 * Virtualized: only the visible rows are in the DOM, so thousands of rows scroll smoothly.
 * Reaching the end loads the next page.
 */
export function TransactionsTable({
  transactions,
  decimalsFor,
  hasNextPage,
  isFetchingNextPage,
  onLoadMore,
  label = 'Transactions',
  maxHeight = '70vh',
}: {
  transactions: Transaction[];
  decimalsFor: (asset: string) => number | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  onLoadMore: () => void;
  label?: string;
  maxHeight?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const hrefBase = useHref('/').replace(/\/$/, '');
  useRowLinkNavigation(scrollRef);
  useFocusFollowsTransaction(scrollRef);
  const isPhone = useMediaQuery(PHONE_QUERY);
  // As many table rows at every offset: the most that a scroll offset shows (a part of one at
  // each edge), not 11 at one offset and 12 at the next. A count that changes mounts a row on
  // one scroll step and removes it on the next (80 of 300 steps through 10,000 rows).
  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      const first = shown[0];
      const height = scrollRef.current?.clientHeight ?? 0;
      if (isPhone || first === undefined || height === 0) return shown;
      const most = Math.ceil(height / ROW_HEIGHT) + 1 + 2 * range.overscan;
      const last = Math.min(range.count - 1, first + most - 1);
      return last <= (shown.at(-1) ?? last)
        ? shown
        : Array.from({ length: last - first + 1 }, (_, i) => first + i);
    },
    [isPhone],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is the chosen virtualizer
  const virtualizer = useVirtualizer({
    rangeExtractor,
    count: transactions.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (isPhone ? CARD_HEIGHT : ROW_HEIGHT),
    // Rows beyond each edge are rendered on every scroll step that reveals them: two cover a
    // wheel step without making each long jump render more rows than it shows (BENCHMARKS.md).
    overscan: 2,
    initialRect: { width: 1024, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  // Within five rows of the end. A boolean, so the effect below runs when it turns, not on
  // every scroll step: an effect that runs makes React schedule a task after each commit.
  const isNearEnd = (items.at(-1)?.index ?? -1) >= transactions.length - 5;

  useEffect(() => {
    virtualizer.measure();
  }, [isPhone, virtualizer]);

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && isNearEnd) onLoadMore();
  }, [hasNextPage, isFetchingNextPage, isNearEnd, onLoadMore]);

  // Rows that arrived are formatted before they are scrolled to, while the browser is idle.
  useEffect(() => {
    formatAheadWhenIdle(transactions, (transaction) => transaction.createdAt);
    linkTextsAheadWhenIdle(transactions);
  }, [transactions]);

  // One decimal point for the whole column: the most decimals among the loaded rows' assets.
  // Computed per distinct asset and only when the list changes, not per row on each render.
  const alignDecimals = useMemo(() => {
    const assets = new Set(transactions.map((t) => t.asset));
    return [...assets].reduce((most, asset) => Math.max(most, decimalsFor(asset) ?? 0), 0);
  }, [transactions, decimalsFor]);
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <HrefBase value={hrefBase}>
      <div
        ref={scrollRef}
        // relative: absolutely positioned sr-only texts in the cells stay clipped by this box.
        className="relative overflow-auto"
        style={{ maxHeight }}
        tabIndex={0}
        role="region"
        aria-label={`${label} (scrollable)`}
      >
        {isPhone ? (
          <div role="list" aria-label={label}>
            <div aria-hidden="true" style={{ height: paddingTop }} />
            {items.map((item) => {
              const transaction = transactions[item.index];
              if (!transaction) return null;
              return (
                <div
                  key={transaction.id}
                  role="listitem"
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                >
                  <Card
                    transaction={transaction}
                    decimals={decimalsFor(transaction.asset)}
                    alignDecimals={alignDecimals}
                  />
                </div>
              );
            })}
            <div aria-hidden="true" style={{ height: paddingBottom }} />
          </div>
        ) : (
          <table
            // Fixed layout: column widths come from the header, so a scroll step that swaps
            // every visible row does not make the browser size the columns again. No cell is
            // taller than two lines (the type above its testnet badge; a whole local timestamp
            // on one), so every row is ROW_HEIGHT tall, as the virtualizer counts it: cells
            // that wrapped freely made rows of differing heights. Every column fits the
            // 1,166 px a 1440 px window gives the table; Account takes the rest. Only the
            // cells of variable length clip (truncate): each clip is one more paint property
            // node per row to update on every scroll step.
            className="w-full min-w-[72rem] table-fixed border-collapse text-left text-sm"
            aria-label={label}
            aria-rowcount={transactions.length + 1}
          >
            {TABLE_HEAD}
            <tbody>
              {paddingTop > 0 ? (
                <tr aria-hidden="true">
                  <td colSpan={7} style={{ height: paddingTop }} />
                </tr>
              ) : null}
              {items.map((item, position) => {
                const transaction = transactions[item.index];
                if (!transaction) return null;
                return (
                  <TableRow
                    // Keyed by position in the window, not by transaction: a scroll step hands
                    // each row element the transaction now at its place instead of removing it
                    // and creating another (profiled: creating and removing rows was most of a
                    // frame). Not by `index % count` either: the count changes with the scroll
                    // offset (15 or 16 rows), which re-keyed, so re-created, every row, and the
                    // keys' order rotated, which moved row elements (each move rebuilds the
                    // row's style and layout objects). Cells that show the same values as before
                    // do not render again (memoized).
                    key={position}
                    rowIndex={item.index + 2}
                    transaction={transaction}
                    decimals={decimalsFor(transaction.asset)}
                    alignDecimals={alignDecimals}
                  />
                );
              })}
              {paddingBottom > 0 ? (
                <tr aria-hidden="true">
                  <td colSpan={7} style={{ height: paddingBottom }} />
                </tr>
              ) : null}
            </tbody>
          </table>
        )}
        {isFetchingNextPage ? (
          <p role="status" className="p-3 text-center text-xs text-slate-600">
            Loading more…
          </p>
        ) : null}
      </div>
    </HrefBase>
  );
}
