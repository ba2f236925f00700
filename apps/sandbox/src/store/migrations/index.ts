import type { Migration } from '@settlement/sqlite';
import { migration001 } from './001-core';
import { migration002 } from './002-events';
import { migration003 } from './003-accounts-wallets-mpc';
import { migration004 } from './004-money-movement';
import { migration005 } from './005-transaction-list-indexes';
import { migration006 } from './006-due-transactions';

/** Every migration, in name order. Append new ones at the end; never rename or edit applied ones. */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
];
