import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { cleanSupportQuery } from '../../../features/support/api/support-search';
import { timelineQuery } from '../../../features/timeline/api/support-timeline';
import { IdLookupForm } from '../../id-lookup-form';
import { LookupHeading } from '../../lookup-heading';
import { TimelineList } from '../../../features/timeline/components/timeline-list';

/** /timeline?q=<any id>: the one merged timeline of that id; the address is the link to share. */
export function TimelinePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = cleanSupportQuery(searchParams.get('q') ?? '');
  const query = useQuery(timelineQuery(q));

  return (
    <>
      <PageHeader
        title="Timeline"
        description="Everything that happened under one id, in time order: operator actions, upstream calls, approvals, events, balance effects and confirmations."
        actions={
          q ? (
            <>
              <Link
                to={`/support?${new URLSearchParams({ q }).toString()}`}
                className="text-sm text-indigo-700 underline"
              >
                Search results
              </Link>
              <CopyButton value={window.location.href} label="link to this timeline" />
            </>
          ) : null
        }
      />
      <IdLookupForm
        key={q}
        initial={q}
        formLabel="Timeline look-up"
        fieldLabel="Id"
        submitLabel="Show timeline"
        onSubmit={(next) => {
          setSearchParams(next ? { q: next } : {}, { preventScrollReset: true });
        }}
      />
      {q === '' ? (
        <EmptyState title="Paste any id to see its timeline">
          A correlationId, requestId, transaction id, clientReference, tx hash, operation id or
          address.
        </EmptyState>
      ) : (
        <Panel>
          <div className="p-4">
            <QueryView query={query} skeleton={<TableSkeleton label="Loading the timeline" />}>
              {(timeline) => (
                <>
                  <LookupHeading
                    lead="Timeline of"
                    query={timeline.query}
                    kinds={timeline.matched}
                    className="mb-3"
                  >
                    <Button size="sm" variant="ghost" onClick={() => void query.refetch()}>
                      Refresh
                    </Button>
                  </LookupHeading>
                  <TimelineList timeline={timeline} />
                </>
              )}
            </QueryView>
          </div>
        </Panel>
      )}
    </>
  );
}
