import { SavedViewSchema, type SavedViewInput } from '@settlement/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { savedViewKeys } from './keys';

/** Saves a view; the same name again replaces its filters and visibility. */
function saveView(input: SavedViewInput) {
  return apiRequest('/bff/saved-views', SavedViewSchema, { method: 'POST', body: input });
}

export function useSaveViewMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveView,
    onSuccess: (view) =>
      queryClient.invalidateQueries({ queryKey: savedViewKeys.list(view.subject) }),
  });
}
