import type { Filters } from '../../../lib/paging';

export const EVENT_FILTERS = ['family', 'type', 'q'] as const;
export type EventFilters = Filters<(typeof EVENT_FILTERS)[number]>;

export const eventKeys = {
  all: ['events'] as const,
  histories: () => [...eventKeys.all, 'history'] as const,
  history: (filters: EventFilters) => [...eventKeys.histories(), filters] as const,
};
