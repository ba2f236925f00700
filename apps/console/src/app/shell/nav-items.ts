/**
 * The main navigation, in order. One list for the sidebar and the phone drawer: a new page adds
 * one entry here. `badge` names a count the shell knows how to show next to the label.
 */
export type NavItem = { to: string; label: string; end: boolean; badge?: 'approvals' };

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
  { to: '/setup', label: 'Setup', end: false },
];
