import { PolicySchema, PolicyVersionsSchema } from '@settlement/protocol';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { governanceKeys } from './keys';

export function policyQuery() {
  return queryOptions({
    queryKey: governanceKeys.policyCurrent(),
    queryFn: ({ signal }) => apiRequest('/bff/policy', PolicySchema, { signal }),
  });
}

export function policyVersionsQuery() {
  return queryOptions({
    queryKey: governanceKeys.policyVersions(),
    queryFn: ({ signal }) => apiRequest('/bff/policy/versions', PolicyVersionsSchema, { signal }),
  });
}
