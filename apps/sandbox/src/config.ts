import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

/** Visible ASCII, no spaces: the admin token is compared as opaque bytes. */
const AdminTokenSchema = z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16-256 visible ASCII');

const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4010),
  dataDir: z.string().min(1).default('.data/sandbox'),
  blockMs: z.coerce.number().int().min(5).max(600_000).default(1000),
  adminToken: AdminTokenSchema.optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * `--port P --data DIR [--block-ms N]` and env `SANDBOX_ADMIN_TOKEN`, `LOG_LEVEL`; a relative
 * DIR is resolved against `INIT_CWD` (set by npm) or the cwd. Names every bad key at once.
 */
export function loadConfig(
  argv: readonly string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
): Config {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        'block-ms': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const parsed = ConfigSchema.safeParse({
    port: values.port,
    dataDir: values.data,
    blockMs: values['block-ms'],
    adminToken: env.SANDBOX_ADMIN_TOKEN === '' ? undefined : env.SANDBOX_ADMIN_TOKEN,
    logLevel: env.LOG_LEVEL === '' ? undefined : env.LOG_LEVEL,
  });
  if (!parsed.success) {
    const names: Record<string, string> = {
      port: '--port',
      dataDir: '--data',
      blockMs: '--block-ms',
      adminToken: 'SANDBOX_ADMIN_TOKEN',
      logLevel: 'LOG_LEVEL',
    };
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      return `${names[key] ?? key}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  // `npm run sandbox -w ...` runs in the workspace folder; relative paths mean the caller's cwd.
  const base = env.INIT_CWD ?? process.cwd();
  return { ...parsed.data, dataDir: resolve(base, parsed.data.dataDir) };
}

/**
 * The admin token: the configured one, else the one stored in DIR/admin-token, else a new
 * random token written there with mode 0600.
 */
export function ensureAdminToken(dataDir: string, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (AdminTokenSchema.safeParse(stored).success) {
      chmodSync(file, 0o600);
      return stored;
    }
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}
