import type { Logger } from 'pino';
import type { Db } from './store/db';

/** What every route and background service of the sandbox receives (built by createSandbox). */
export type AppContext = {
  db: Db;
  logger: Logger;
  /** Milliseconds since the epoch; injectable so tests can move the clock. */
  nowMs: () => number;
  /** Simulated chain block interval. */
  blockMs: number;
  /** HMAC key of pagination cursors (generated once, stored in the database under DIR). */
  cursorSecret: Buffer;
};

/** A background loop started once the server listens (its own base URL known), stopped on close. */
export type BackgroundService = {
  name: string;
  start: (runtime: { baseUrl: string }) => void;
  stop: () => void | Promise<void>;
};
