import { createContext, useContext } from 'react';
import type { Me as Session } from '@settlement/protocol';
import type { Permissions } from '../../features/session/permissions';

export type SessionContextValue = { session: Session; permissions: Permissions };

export const SessionContext = createContext<SessionContextValue | null>(null);

/** The signed-in operator; only used below RequireSession. */
export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside RequireSession');
  return value;
}
