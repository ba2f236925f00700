import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { generatePassword, hashPassword, passwordWeakness } from '../services/passwords';
import { openStorage } from '../store/open';
import { ROLES, RoleSchema, UsernameSchema } from '@settlement/protocol';
import { createOperatorStore } from '../store/operators';

const USAGE = `usage:
  npm run operators -w @settlement/bff -- add <username> --role <${ROLES.join('|')}> [--password-stdin]
  npm run operators -w @settlement/bff -- reset-password <username> [--password-stdin]
  npm run operators -w @settlement/bff -- list
Without --password-stdin a random password is generated and printed once.`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * A generated password, or the one on stdin judged exactly as the BFF judges a new password
 * (length and zxcvbn, the username as context): the shell is no way around the rule.
 */
async function passwordFrom(
  isStdin: boolean,
  username: string,
): Promise<{ password: string; isGenerated: boolean }> {
  if (!isStdin) return { password: generatePassword(), isGenerated: true };
  const password = await readStdin();
  const weakness = passwordWeakness(password, [username]);
  if (weakness) throw new Error(`password refused: ${weakness}`);
  return { password, isGenerated: false };
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: 'string' }, 'password-stdin': { type: 'boolean', default: false } },
  });
  const [command, usernameArg] = positionals;
  const config = loadConfig();
  const db = await openStorage(config);
  try {
    const operators = createOperatorStore(db);
    if (command === 'list') {
      for (const operator of await operators.list())
        process.stdout.write(`${operator.username}\t${operator.role}\n`);
      return;
    }
    if (command !== 'add' && command !== 'reset-password') throw new Error(USAGE);
    const username = UsernameSchema.safeParse(usernameArg);
    if (!username.success)
      throw new Error(`username ${username.error.issues[0]?.message ?? 'is invalid'}\n${USAGE}`);
    if (command === 'add') {
      const role = RoleSchema.safeParse(values.role);
      if (!role.success) throw new Error(`--role must be one of ${ROLES.join(', ')}\n${USAGE}`);
      if (await operators.findByUsername(username.data))
        throw new Error(`operator ${username.data} exists`);
      const { password, isGenerated } = await passwordFrom(values['password-stdin'], username.data);
      await operators.add(username.data, role.data, await hashPassword(password));
      process.stdout.write(`added ${username.data} (${role.data})\n`);
      if (isGenerated) process.stdout.write(`password: ${password}\n`);
      return;
    }
    const { password, isGenerated } = await passwordFrom(values['password-stdin'], username.data);
    if (!(await operators.resetPassword(username.data, await hashPassword(password)))) {
      throw new Error(`no operator ${username.data}`);
    }
    process.stdout.write(`password of ${username.data} reset; its sessions are closed\n`);
    if (isGenerated) process.stdout.write(`password: ${password}\n`);
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
