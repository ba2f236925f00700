import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RoleSchema, type Role } from '@settlement/protocol';
import { request } from 'undici';
import { z } from 'zod';
import { ConfigError, loadConfig, type KeysFile } from '../config';
import { generatePassword, hashPassword } from '../services/passwords';
import { DEMO_POLICY } from '../governance/demo-policy';
import { createPolicyStore, type PolicyStore } from '../governance/policy-store';
import { openStorage } from '../store/open';
import { createOperatorStore } from '../store/operators';

/** Least privilege: one key per need (DESIGN.md "Operators and keys"). */
export const DEMO_KEYS = [
  { name: 'reader', scopes: ['wallets:read', 'accounts:read', 'transactions:read', 'mpc:read'] },
  { name: 'treasury', scopes: ['wallets:create', 'withdrawals:create'] },
  { name: 'mpc-admin', scopes: ['mpc:initialize'] },
  { name: 'events', scopes: ['websockets:read'] },
] as const;

const DEMO_OPERATORS: readonly { username: string; role: Role }[] = [
  { username: 'admin', role: 'admin' },
  { username: 'admin2', role: 'admin' },
  { username: 'treasury', role: 'treasury' },
  { username: 'support', role: 'support' },
];

export type DemoCredentials = {
  orgId: string;
  operators: { username: string; role: Role; password: string }[];
};

const CredentialsSchema = z.object({
  orgId: z.string(),
  operators: z.array(
    z.object({
      username: z.string(),
      role: RoleSchema,
      password: z.string(),
    }),
  ),
});

const OrgCreatedSchema = z.looseObject({ orgId: z.string().min(1) });
const KeyCreatedSchema = z.looseObject({ keyId: z.string().min(1), privateKey: z.string().min(1) });

async function controlPlane(
  sandboxUrl: string,
  adminToken: string,
  path: string,
  body: unknown,
): Promise<unknown> {
  const response = await request(`${sandboxUrl.replace(/\/+$/, '')}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.body.text();
  if (response.statusCode !== 201) {
    throw new Error(
      `sandbox control plane ${path} answered ${response.statusCode}: ${text.slice(0, 200)}`,
    );
  }
  return JSON.parse(text);
}

/** Writes a file atomically with mode 0600. */
function writeSecret(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

export function keysFilePath(dataDir: string): string {
  return join(dataDir, 'bff', 'keys.json');
}

export function credentialsPath(dataDir: string): string {
  return join(dataDir, 'demo-credentials.json');
}

/** The default withdrawal policy, unless a policy was ever stored (an admin's is kept). */
async function installDefaultPolicy(policies: PolicyStore): Promise<void> {
  if (!(await policies.current())) await policies.save(DEMO_POLICY, 'seed');
}

/**
 * Seeds the demo organization once: org "Demo Treasury", least-privilege API keys with
 * sandbox-generated pairs (keys.json, 0600), operators admin/admin2/treasury/support with random
 * passwords (demo-credentials.json, 0600) and the default withdrawal policy. When keys.json exists it does nothing and returns
 * the stored credentials (or null when that file was removed).
 */
export async function seedDemo(input: {
  sandboxUrl: string;
  adminToken: string;
  dataDir: string;
  /** PostgreSQL for the stores (as DATABASE_URL); SQLite in `dataDir` when absent. */
  databaseUrl?: string | null;
}): Promise<{ isNew: boolean; credentials: DemoCredentials | null }> {
  const storage = { dataDir: input.dataDir, databaseUrl: input.databaseUrl ?? null };
  const keysPath = keysFilePath(input.dataDir);
  const credsPath = credentialsPath(input.dataDir);
  if (existsSync(keysPath)) {
    const stored = existsSync(credsPath)
      ? CredentialsSchema.safeParse(JSON.parse(readFileSync(credsPath, 'utf8')))
      : null;
    // A data dir seeded before governance existed gets the default policy, not default deny;
    // a database new to this data dir (SQLite -> PostgreSQL) gets the demo operators too.
    const db = await openStorage(storage);
    try {
      await installDefaultPolicy(createPolicyStore(db));
      const operators = createOperatorStore(db);
      for (const operator of stored?.success ? stored.data.operators : []) {
        if (await operators.findByUsername(operator.username)) continue;
        await operators.add(
          operator.username,
          operator.role,
          await hashPassword(operator.password),
        );
      }
    } finally {
      await db.close();
    }
    return { isNew: false, credentials: stored?.success ? stored.data : null };
  }

  const { orgId } = OrgCreatedSchema.parse(
    await controlPlane(input.sandboxUrl, input.adminToken, '/sandbox/orgs', {
      name: 'Demo Treasury',
    }),
  );
  const keysFile: KeysFile = { orgId, keys: [] };
  for (const spec of DEMO_KEYS) {
    const created = KeyCreatedSchema.parse(
      await controlPlane(
        input.sandboxUrl,
        input.adminToken,
        `/sandbox/orgs/${encodeURIComponent(orgId)}/api-keys`,
        { scopes: spec.scopes },
      ),
    );
    keysFile.keys.push({
      name: spec.name,
      keyId: created.keyId,
      seed: created.privateKey,
      scopes: [...spec.scopes],
    });
  }

  const db = await openStorage(storage);
  const credentials: DemoCredentials = { orgId, operators: [] };
  try {
    const operators = createOperatorStore(db);
    for (const { username, role } of DEMO_OPERATORS) {
      const password = generatePassword();
      const hash = await hashPassword(password);
      if (await operators.findByUsername(username)) await operators.resetPassword(username, hash);
      else await operators.add(username, role, hash);
      credentials.operators.push({ username, role, password });
    }
    await installDefaultPolicy(createPolicyStore(db));
  } finally {
    await db.close();
  }
  writeSecret(credsPath, `${JSON.stringify(credentials, null, 2)}\n`);
  // keys.json last: its presence marks a completed seed.
  writeSecret(keysPath, `${JSON.stringify(keysFile, null, 2)}\n`);
  return { isNew: true, credentials };
}

/** CLI: `npm run seed-demo -w @settlement/bff` (scripts/start.mjs runs this file directly). */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.sandbox) throw new ConfigError('SANDBOX_ADMIN_TOKEN is required to seed the demo');
  const result = await seedDemo({
    sandboxUrl: config.sandbox.url,
    adminToken: config.sandbox.adminToken,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
  });
  if (!result.isNew) return;
  const lines = [`Demo organization ${result.credentials?.orgId ?? ''} seeded. Operators:`];
  for (const operator of result.credentials?.operators ?? []) {
    lines.push(
      `  ${operator.username.padEnd(9)} (${operator.role}) password: ${operator.password}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(resolve(entry)).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`seed-demo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
