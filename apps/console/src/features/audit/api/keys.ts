import type { Filters } from '../../../lib/paging';

/** The audit log's filters, under the names GET /bff/audit and the page's URL both use. */
export const AUDIT_FILTERS = ['operator', 'action', 'from', 'to'] as const;
export type AuditFilters = Filters<(typeof AUDIT_FILTERS)[number]>;

/** One page of the log as it stood at `snapshotAt` (absent: the first page asks for "now"). */
export type AuditPageParams = AuditFilters & { page: number; snapshotAt?: string };

export const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (params: AuditPageParams) => [...auditKeys.lists(), params] as const,
};
