import type { SavedView } from '@settlement/protocol';

export type SavedViewSubject = SavedView['subject'];

export const savedViewKeys = {
  all: ['saved-views'] as const,
  lists: () => [...savedViewKeys.all, 'list'] as const,
  list: (subject: SavedViewSubject) => [...savedViewKeys.lists(), subject] as const,
};
