import { Button } from './button';

/** Cursor paging: shows "Load more" while the server says there is a next page. */
export function LoadMore({
  hasNextPage,
  isFetching,
  onLoadMore,
}: {
  hasNextPage: boolean;
  isFetching: boolean;
  onLoadMore: () => void;
}) {
  if (!hasNextPage) return null;
  return (
    <div className="flex justify-center border-t border-slate-100 p-3">
      <Button size="sm" onClick={onLoadMore} disabled={isFetching}>
        {isFetching ? 'Loading…' : 'Load more'}
      </Button>
    </div>
  );
}
