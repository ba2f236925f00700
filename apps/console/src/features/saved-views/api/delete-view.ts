import type { SavedView } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest } from '../../../lib/api-client';
import { savedViewKeys } from './keys';

function deleteView(view: Pick<SavedView, 'id'>) {
  return apiRequest(`/bff/saved-views/${encodeURIComponent(view.id)}`, z.unknown(), {
    method: 'DELETE',
  });
}

export function useDeleteViewMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (view: Pick<SavedView, 'id' | 'subject'>) => deleteView(view),
    onSettled: (_result, _error, view) =>
      queryClient.invalidateQueries({ queryKey: savedViewKeys.list(view.subject) }),
  });
}
