import { migration001 } from './001-core';
import { migration002 } from './002-events';
import { migration003 } from './003-accounts-wallets-mpc';
import { migration101 } from './101-money-movement';
import type { Migration } from './migration';

/** Every migration, in order. Append new ones at the end (never renumber or edit applied ones). */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration101,
];
