/**
 * The main navigation, in order. One list for the sidebar and the phone drawer: a new page adds
 * one entry here. `badge` names a count the shell knows how to show next to the label.
 */
import type { Role } from '@settlement/protocol';

/** `roles`: only these roles see the entry (the BFF refuses the others anyway). */
export type NavItem = {
  to: string;
  label: string;
  end: boolean;
  badge?: 'approvals';
  roles?: readonly Role[];
};

export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Overview', end: true },
  { to: '/accounts', label: 'Accounts', end: false },
  { to: '/wallets', label: 'Wallets', end: false },
  { to: '/transactions', label: 'Transactions', end: false },
  { to: '/approvals', label: 'Approvals', end: false, badge: 'approvals' },
  { to: '/policy', label: 'Policy', end: false },
  { to: '/address-book', label: 'Address book', end: false },
  { to: '/events', label: 'Events', end: false },
  { to: '/support', label: 'Support', end: false },
  { to: '/timeline', label: 'Timeline', end: false },
  { to: '/audit', label: 'Audit log', end: false },
  { to: '/setup', label: 'Setup', end: false },
  { to: '/passkeys', label: 'Passkeys', end: false },
  { to: '/sessions', label: 'Your sessions', end: false },
  { to: '/operators', label: 'Operators', end: false, roles: ['admin'] },
];

/** The entries one role sees, in order. */
export function navItemsFor(role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => item.roles === undefined || item.roles.includes(role));
}
