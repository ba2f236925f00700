import { hasRole, type Me, type Role } from '@settlement/protocol';

/** What the signed-in operator may do; the BFF enforces the same table. */
export type Permissions = {
  canCreateAccount: boolean;
  canCreateWallet: boolean;
  canCreateWithdrawal: boolean;
  canInitializeMpc: boolean;
  canUseSandboxTools: boolean;
};

export function permissionsFor(session: Pick<Me, 'operator' | 'upstream'>): Permissions {
  const { role } = session.operator;
  const isTreasury = hasRole(role, 'treasury');
  const isAdmin = hasRole(role, 'admin');
  return {
    canCreateAccount: isTreasury,
    canCreateWallet: isTreasury,
    canCreateWithdrawal: isTreasury,
    canInitializeMpc: isAdmin,
    canUseSandboxTools: isAdmin && session.upstream.kind === 'sandbox',
  };
}

export function roleReason(action: string, needed: Exclude<Role, 'support'>): string {
  return needed === 'admin'
    ? `Only an admin can ${action}.`
    : `Only treasury or admin operators can ${action}.`;
}
