import { Agent, type Dispatcher } from 'undici';
import { createSettlementClient, type SettlementClient } from '@settlement/client';
import type { ApiKey, KeyScope, Keys } from '../config';
import { createSodiumSigner } from './signer';

export type UpstreamOptions = {
  baseUrl: string;
  keys: Keys;
  timeoutMs: number;
  /** Test hook: backoff base/cap of the retry policy (DESIGN defaults otherwise). */
  retry?: { baseMs?: number; capMs?: number };
  /** Test hook: the signing clock and nonce source (support's failure explanations are tested
   * by provoking a skewed clock and a reused nonce). */
  clock?: { now?: () => number; nonce?: () => string };
};

export type Upstream = {
  orgId: string;
  /** The client of the least-privileged key having `scope`; any key's when scope is null. */
  clientFor(scope: KeyScope | null): { client: SettlementClient; keyName: string } | null;
  keyFor(scope: KeyScope): ApiKey | null;
  /** The configured key with this key id (name and scopes only, never the seed). */
  describeKey(keyId: string): { name: string; scopes: KeyScope[] } | null;
  /** The shared keep-alive dispatcher (also used for the control plane and health probes). */
  dispatcher: Dispatcher;
  close(): Promise<void>;
};

/** One keep-alive undici Agent shared by one client per configured key (keys parsed once). */
export function createUpstream(options: UpstreamOptions): Upstream {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  const clients = new Map<string, SettlementClient>();
  for (const key of options.keys.keys) {
    clients.set(
      key.name,
      createSettlementClient({
        baseUrl: options.baseUrl,
        signer: createSodiumSigner(key.keyId, key.seed),
        dispatcher: agent,
        retry: { timeoutMs: options.timeoutMs, ...options.retry },
        ...(options.clock ? { clock: options.clock } : {}),
      }),
    );
  }
  // Fewest scopes first; for "any key" (assets), a read-only key before one that can write.
  const isReadOnly = (key: ApiKey) => key.scopes.every((scope) => scope.endsWith(':read'));
  const byPrivilege = [...options.keys.keys].sort((a, b) => a.scopes.length - b.scopes.length);
  const readOnlyFirst = [...byPrivilege].sort(
    (a, b) => Number(isReadOnly(b)) - Number(isReadOnly(a)),
  );
  const keyFor = (scope: KeyScope | null): ApiKey | null =>
    scope === null
      ? (readOnlyFirst[0] ?? null)
      : (byPrivilege.find((key) => key.scopes.includes(scope)) ?? null);

  return {
    orgId: options.keys.orgId,
    keyFor,
    describeKey(keyId) {
      const key = options.keys.keys.find((k) => k.keyId === keyId);
      return key ? { name: key.name, scopes: [...key.scopes] } : null;
    },
    dispatcher: agent,
    clientFor(scope) {
      const key = keyFor(scope);
      const client = key ? clients.get(key.name) : undefined;
      return key && client ? { client, keyName: key.name } : null;
    },
    async close() {
      await agent.close();
    },
  };
}
