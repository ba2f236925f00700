export const timelineKeys = {
  all: ['timeline'] as const,
  details: () => [...timelineKeys.all, 'detail'] as const,
  /** One merged timeline per queried id. */
  detail: (q: string) => [...timelineKeys.details(), q] as const,
  explanations: () => [...timelineKeys.all, 'explanation'] as const,
  /** Why one upstream call (by the x-request-id the BFF sent) failed. */
  explanation: (requestId: string) => [...timelineKeys.explanations(), requestId] as const,
};
