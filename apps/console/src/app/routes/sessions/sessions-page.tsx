import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { sessionsQuery, useEndSessionsMutation } from '../../../features/security/api/sessions';
import { SessionsTable } from '../../../features/security/components/sessions-table';
import { useSession } from '../../shell/session-context';

/** Your sessions (an admin: `?username=` shows another operator's). */
export function SessionsPage() {
  const { session } = useSession();
  const [searchParams] = useSearchParams();
  const asked = searchParams.get('username');
  const username = asked && asked !== session.operator.username ? asked : null;
  const query = useQuery(sessionsQuery(username));
  const end = useEndSessionsMutation();
  const items = query.data?.items ?? [];
  const hasOthers = username === null && items.some((s) => !s.isCurrent);

  return (
    <>
      <PageHeader
        title={username ? `Sessions of ${username}` : 'Your sessions'}
        description="Every browser signed in to the console. Ending a session signs that browser out at once."
        actions={
          hasOthers ? (
            <Button
              variant="danger"
              disabled={end.isPending}
              onClick={() => {
                end.mutate({ kind: 'others' });
              }}
            >
              End all other sessions
            </Button>
          ) : null
        }
      />
      <Panel>
        <QueryView
          query={query}
          skeleton={<TableSkeleton label="Loading sessions" />}
          isEmpty={items.length === 0}
          empty={<p className="p-4 text-sm text-slate-600">No open sessions.</p>}
        >
          {() => (
            <SessionsTable
              label={username ? `Sessions of ${username}` : 'Your sessions'}
              sessions={items}
              isBusy={end.isPending}
              onEnd={(id) => {
                end.mutate({ kind: 'one', id });
              }}
            />
          )}
        </QueryView>
        {end.error ? (
          <div className="p-4">
            <ErrorPanel error={end.error} title="The session was not ended" />
          </div>
        ) : null}
      </Panel>
    </>
  );
}
