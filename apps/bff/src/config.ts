import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { API_SCOPES, ExplorerSchema, type ApiScope, type Explorer } from '@settlement/protocol';
import { decodeKey32 } from '@settlement/protocol/signing';

/** Keys the BFF holds carry the interface's scopes only, never the sandbox's `co-signer`. */
export type KeyScope = ApiScope;

const DEFAULT_CONSOLE_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../console/dist');

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const httpUrl = z.url({ protocol: /^https?$/ });
const wsUrl = z.url({ protocol: /^wss?$/ });
const positiveMs = z.coerce.number().int().min(1);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  UPSTREAM_URL: httpUrl.default('http://127.0.0.1:4010'),
  UPSTREAM_WS_URL: optional(wsUrl),
  KEYS_FILE: optional(z.string().min(1)),
  // Every store on PostgreSQL (any number of replicas share it); unset: SQLite in DATA_DIR.
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
  SANDBOX_ADMIN_TOKEN: optional(
    z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16-256 visible ASCII'),
  ),
  SANDBOX_URL: optional(httpUrl),
  COSIGNER_HEALTH_URL: optional(httpUrl),
  CONSOLE_DIST: z.string().min(1).default(DEFAULT_CONSOLE_DIST),
  SESSION_IDLE_MS: positiveMs.default(15 * 60_000),
  SESSION_ABSOLUTE_MS: positiveMs.default(8 * 3_600_000),
  COOKIE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$|^__Host-[A-Za-z0-9_-]+$/, 'must be a cookie token')
    .default('__Host-sc_session'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPSTREAM_TIMEOUT_MS: positiveMs.default(10_000),
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  LOG_MAX_ROWS: z.coerce.number().int().min(1_000).default(200_000),
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  REQUIRE_PASSKEYS: optional(z.enum(['true', 'false'])),
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/, 'must be a host name (not an IP address)')
    // Browsers refuse WebAuthn for an IP address as relying party: every ceremony would fail.
    .refine((host) => !/^[\d.]+$/.test(host), 'must be a host name (not an IP address)')
    .default('localhost'),
  WEBAUTHN_RP_NAME: z.string().min(1).max(64).default('Settlement Console'),
  WEBAUTHN_ORIGINS: optional(z.string().min(1)),
  // The https origin browsers use behind a TLS-terminating proxy (docs/cluster.md).
  PUBLIC_ORIGIN: optional(
    z
      .string()
      .refine((value) => isOrigin(value), 'must be an http(s) origin (scheme://host[:port])'),
  ),
  EXPLORER_URLS: z
    .string()
    .min(1)
    .default('tron:mainnet=https://tronscan.org,tron:nile=https://nile.tronscan.org'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  upstreamUrl: string;
  upstreamWsUrl: string;
  keysFile: string;
  /** `postgres://` of the shared database, or null for SQLite in `dataDir` (the default). */
  databaseUrl: string | null;
  upstreamKind: 'sandbox' | 'remote';
  /** Present only when upstreamKind is "sandbox". */
  sandbox: { url: string; adminToken: string } | null;
  coSignerHealthUrl: string | null;
  consoleDist: string;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  cookieName: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  upstreamTimeoutMs: number;
  logRetentionDays: number;
  logMaxRows: number;
  eventRetentionDays: number;
  /** Enrollment is part of signing in; defaults on for a remote upstream, off on the sandbox. */
  requirePasskeys: boolean;
  /** The relying party of passkeys and the page origins allowed to use them. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
  /**
   * The page origin browsers use when a proxy in front terminates TLS (PUBLIC_ORIGIN): mutating
   * requests and the event socket from it are same-origin too. Null: only the listener's own.
   */
  publicOrigin: string | null;
  /** Block explorers per chain (EXPLORER_URLS `chain=url,...`, or `none`); none: no links. */
  explorers: Explorer[];
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function problems(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((issue) => `${prefix}${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** scheme://host[:port] and nothing else (a WebAuthn origin). */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** ws://host/v1/ws from http://host (https -> wss). */
export function deriveWsUrl(upstreamUrl: string): string {
  const url = new URL(upstreamUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/ws`;
  url.search = '';
  return url.toString();
}

/** `chain=url,chain=url` (or `none`) as explorers; a bad entry names EXPLORER_URLS. */
function parseExplorers(value: string): Explorer[] {
  if (value.trim() === 'none') return [];
  const entries = value.split(',').map((entry) => {
    const eq = entry.indexOf('=');
    return ExplorerSchema.safeParse({
      chain: entry.slice(0, eq).trim(),
      baseUrl: trimSlash(entry.slice(eq + 1).trim()),
    });
  });
  const explorers = entries.flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  if (explorers.length !== entries.length) {
    throw new ConfigError(
      'invalid configuration: EXPLORER_URLS: must be `none` or comma-separated chain=http(s) URL',
    );
  }
  return explorers;
}

/** A pure parse of the environment; names every bad key at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty value (as copied from .env.example) means "use the default".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) throw new ConfigError(`invalid configuration: ${problems(parsed.error)}`);
  const e = parsed.data;
  if (e.SESSION_IDLE_MS > e.SESSION_ABSOLUTE_MS) {
    throw new ConfigError(
      'invalid configuration: SESSION_IDLE_MS: must not exceed SESSION_ABSOLUTE_MS',
    );
  }
  const origins = (e.WEBAUTHN_ORIGINS ?? `http://${e.WEBAUTHN_RP_ID}:${e.PORT}`)
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  const badOrigin = origins.find((origin) => !isOrigin(origin));
  if (badOrigin !== undefined || origins.length === 0) {
    throw new ConfigError(
      'invalid configuration: WEBAUTHN_ORIGINS: must be comma-separated http(s) origins',
    );
  }
  const explorers = parseExplorers(e.EXPLORER_URLS);
  const upstreamKind = e.SANDBOX_ADMIN_TOKEN ? 'sandbox' : 'remote';
  const dataDir = resolve(e.DATA_DIR);
  const upstreamUrl = trimSlash(e.UPSTREAM_URL);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    upstreamUrl,
    upstreamWsUrl: e.UPSTREAM_WS_URL ?? deriveWsUrl(upstreamUrl),
    keysFile: resolve(e.KEYS_FILE ?? join(dataDir, 'bff', 'keys.json')),
    databaseUrl: e.DATABASE_URL ?? null,
    upstreamKind,
    sandbox: e.SANDBOX_ADMIN_TOKEN
      ? { url: trimSlash(e.SANDBOX_URL ?? upstreamUrl), adminToken: e.SANDBOX_ADMIN_TOKEN }
      : null,
    coSignerHealthUrl: e.COSIGNER_HEALTH_URL ?? null,
    consoleDist: resolve(e.CONSOLE_DIST),
    sessionIdleMs: e.SESSION_IDLE_MS,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_MS,
    cookieName: e.COOKIE_NAME,
    logLevel: e.LOG_LEVEL,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    logMaxRows: e.LOG_MAX_ROWS,
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    requirePasskeys:
      e.REQUIRE_PASSKEYS === undefined ? upstreamKind === 'remote' : e.REQUIRE_PASSKEYS === 'true',
    webauthn: { rpId: e.WEBAUTHN_RP_ID, rpName: e.WEBAUTHN_RP_NAME, origins },
    publicOrigin: e.PUBLIC_ORIGIN ?? null,
    explorers,
  };
}

const KeyEntrySchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be a short lowercase name'),
  keyId: z.string().regex(/^[\x21-\x7e]{1,128}$/, 'must be 1-128 visible ASCII'),
  seed: z.string().superRefine((value, ctx) => {
    try {
      decodeKey32(value, 'seed');
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: error instanceof Error ? error.message : 'bad seed',
      });
    }
  }),
  scopes: z.array(z.enum(API_SCOPES)).min(1),
});

export const KeysFileSchema = z.strictObject({
  orgId: z.string().min(1),
  keys: z
    .array(KeyEntrySchema)
    .min(1)
    .refine(
      (keys) => new Set(keys.map((k) => k.name)).size === keys.length,
      'key names must be unique',
    ),
});
export type KeysFile = z.infer<typeof KeysFileSchema>;

/** A configured key with its seed decoded once. */
export type ApiKey = { name: string; keyId: string; seed: Uint8Array; scopes: KeyScope[] };
export type Keys = { orgId: string; keys: ApiKey[] };

export function parseKeys(value: unknown, source = 'keys file'): Keys {
  const parsed = KeysFileSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`invalid ${source}: ${problems(parsed.error)}`);
  return {
    orgId: parsed.data.orgId,
    keys: parsed.data.keys.map((k) => ({
      name: k.name,
      keyId: k.keyId,
      seed: decodeKey32(k.seed, 'seed'),
      scopes: k.scopes,
    })),
  };
}

export function loadKeys(path: string): Keys {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`KEYS_FILE: cannot read ${path} (run the demo seed or write it)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`KEYS_FILE: ${path} is not JSON`);
  }
  return parseKeys(value, `KEYS_FILE ${path}`);
}

/** The Co-Signer health URL: configured, else the sandbox simulator's for this org. */
export function coSignerHealthUrlFor(config: Config, orgId: string): string | null {
  if (config.coSignerHealthUrl) return config.coSignerHealthUrl;
  if (config.upstreamKind !== 'sandbox') return null;
  return `${config.upstreamUrl}/co-signer/${encodeURIComponent(orgId)}/healthz`;
}
