import type { QueryClient } from '@tanstack/react-query';
import { meQuery } from '../features/session/api/me';
import { consoleConfigQuery } from '../features/treasury/api/console-config';
import { overviewQuery } from '../features/treasury/api/overview';

/**
 * Starts the session probe as the app starts, beside the first page's chunk instead of after
 * it (the session gate renders only once the router has loaded the matched page's module).
 * Signed in, what the shell reads on every page (the overview names wallets; the config links
 * explorers) starts as soon as the probe answers, not once the page has rendered. A failed
 * request is the gate's or the shell's to show: their own queries see the same result.
 */
export function startSessionProbe(client: QueryClient): void {
  client
    .query(meQuery())
    .then((session) => {
      if (!session) return;
      client.query(overviewQuery()).catch(() => undefined);
      client.query(consoleConfigQuery()).catch(() => undefined);
    })
    .catch(() => undefined);
}
