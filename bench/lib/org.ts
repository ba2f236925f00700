import { createSettlementClient, type SettlementClient } from '@settlement/client';
import { API_SCOPES } from '@settlement/protocol';
import { decodeKey32, signRestRequest, type Signer } from '@settlement/protocol/signing';
import { createSodiumSigner } from '@settlement/bff/signer';
import { sleep } from './procs';
import type { SandboxProc } from './stack';

/**
 * An organization on a sandbox process driven directly (no BFF): a key with every scope, a
 * packages/client client over it, and the steps to "can withdraw".
 */
export type BenchOrg = {
  orgId: string;
  signer: Signer;
  client: SettlementClient;
  /** Signed headers for one request with the exact body bytes that will be sent. */
  sign(method: 'GET' | 'POST', target: string, body: string | null): Record<string, string>;
};

export async function createBenchOrg(sandbox: SandboxProc, name: string): Promise<BenchOrg> {
  const org = await sandbox.control('POST', '/sandbox/orgs', { name });
  const { orgId } = org.json as { orgId: string };
  const key = await sandbox.control('POST', `/sandbox/orgs/${orgId}/api-keys`, {
    scopes: API_SCOPES,
  });
  const { keyId, privateKey } = key.json as { keyId: string; privateKey: string };
  const signer = createSodiumSigner(keyId, decodeKey32(privateKey));
  const client = createSettlementClient({ baseUrl: sandbox.url, signer });
  return {
    orgId,
    signer,
    client,
    sign: (method, target, body) => ({
      ...signRestRequest(signer, {
        method,
        target,
        body: body === null ? null : Buffer.from(body, 'utf8'),
      }),
    }),
  };
}

/** Co-Signer online, MPC initialized, key ACTIVE and tron:nile ready. */
export async function makeOrgReady(sandbox: SandboxProc, org: BenchOrg): Promise<void> {
  await sandbox.control('PUT', `/sandbox/orgs/${org.orgId}/co-signer`, { online: true });
  await org.client.initializeMpc(`bench-mpc-${org.orgId}`);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const status = await org.client.getMpcStatus();
    if (status.keyStatus === 'ACTIVE' && status.chains.some((c) => c.ready)) return;
    await sleep(50);
  }
  throw new Error('MPC key did not become ACTIVE');
}

/** An account and a tron:nile wallet; funded through a control-plane deposit when asked. */
export async function createWallet(
  sandbox: SandboxProc,
  org: BenchOrg,
  name: string,
  fundAtomic?: string,
): Promise<{ accountId: string; walletId: string; address: string }> {
  const account = await org.client.createAccount({ name });
  const wallet = await org.client.createWallet(
    { chain: 'tron:nile', accountId: account.id },
    `bench-wallet-${account.id}`,
  );
  if (fundAtomic !== undefined) {
    const deposit = await sandbox.control('POST', `/sandbox/orgs/${org.orgId}/deposits`, {
      walletId: wallet.id,
      asset: 'TRX',
      amountAtomic: fundAtomic,
    });
    const { transactionId } = deposit.json as { transactionId: string };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const tx = await org.client.getTransaction(transactionId);
      if (tx.status === 'CONFIRMED') break;
      if (Date.now() > deadline) throw new Error('deposit not credited within 60 s');
      await sleep(50);
    }
  }
  return { accountId: account.id, walletId: wallet.id, address: wallet.address };
}
