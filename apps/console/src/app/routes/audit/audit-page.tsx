import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ExportButton } from '../../../components/ui/export-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { auditPageQuery } from '../../../features/audit/api/audit-page';
import { AUDIT_FILTERS, type AuditFilters as Filters } from '../../../features/audit/api/keys';
import { AuditFilters } from '../../../features/audit/components/audit-filters';
import { AuditTable } from '../../../features/audit/components/audit-table';
import { useUrlFilters } from '../../../lib/url-filters';

/** The filters, the page and the snapshot the pages are read at: all in the address bar. */
const URL_PARAMS = [...AUDIT_FILTERS, 'page', 'snapshotAt'] as const;

function pageOf(value: string | undefined): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function AuditPage() {
  const [params, setParams] = useUrlFilters(URL_PARAMS);
  const { page: pageParam, snapshotAt, ...rest } = params;
  const filters: Filters = rest;
  const page = pageOf(pageParam);
  const query = useQuery(
    auditPageQuery({ ...filters, page, ...(snapshotAt ? { snapshotAt } : {}) }),
  );
  const hasFilters = Object.values(filters).some(Boolean);

  // Every page after the first is read at the first page's snapshotAt, so rows written meanwhile
  // never push rows from one page onto the next.
  const goTo = (next: number, at: string) => {
    setParams({ ...filters, page: String(next), snapshotAt: at });
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every operator action, newest first. Filters, page and snapshot stay in the address bar."
        actions={<ExportButton subject="audit" filters={filters} />}
      />
      <Panel>
        <AuditFilters key={JSON.stringify(filters)} filters={filters} onChange={setParams} />
        <QueryView
          query={query}
          skeleton={<TableSkeleton label="Loading the audit log" />}
          isEmpty={query.data?.total === 0}
          empty={
            <EmptyState title={hasFilters ? 'No action matches these filters' : 'No actions yet'}>
              {hasFilters ? 'Change or clear the filters.' : 'Operator actions will show here.'}
            </EmptyState>
          }
        >
          {(data) => {
            const pages = Math.max(1, Math.ceil(data.total / data.limit));
            return (
              <>
                <AuditTable items={data.items} />
                <nav
                  aria-label="Audit log pages"
                  className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm"
                >
                  <p className="text-slate-700" aria-live="polite">
                    Page {data.page} of {pages} · {data.total.toLocaleString()} actions as of{' '}
                    <Time value={data.snapshotAt} />
                  </p>
                  <div className="flex gap-2">
                    {snapshotAt ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => {
                          setParams(filters);
                        }}
                      >
                        Show latest
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      disabled={data.page <= 1 || query.isPlaceholderData}
                      onClick={() => {
                        goTo(data.page - 1, data.snapshotAt);
                      }}
                    >
                      Previous page
                    </Button>
                    <Button
                      size="sm"
                      disabled={data.page >= pages || query.isPlaceholderData}
                      onClick={() => {
                        goTo(data.page + 1, data.snapshotAt);
                      }}
                    >
                      Next page
                    </Button>
                  </div>
                </nav>
              </>
            );
          }}
        </QueryView>
      </Panel>
    </>
  );
}
