import { readFile } from 'node:fs/promises';
import type { ListEnvelope, Transaction } from '@settlement/protocol';
import {
  BffSession,
  createFundedWallet,
  ensureReady,
  expect,
  EXTERNAL_ADDRESS,
  saveScreenshot,
  signIn,
  test,
} from '../fixtures';
import { allowAllWithdrawals } from '../policy';

/**
 * A strict RFC 4180 reader: CRLF after every record (the last one too), quotes doubled inside
 * quoted fields, nothing after a closing quote but a comma or CRLF. It throws on anything else,
 * so a file that parses here is RFC 4180 as written, not merely "splittable on commas".
 */
function parseRfc4180(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) throw new Error('unterminated quoted field');
        field += text.slice(i, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote in an unquoted field at ${i}`);
        field += text.charAt(i);
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      throw new Error(`expected a comma or CRLF at ${i}`);
    }
  }
  if (record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

/** Every transaction of the BFF's list for `filters`, through all its pages. */
async function listAll(session: BffSession, filters: Record<string, string>) {
  const items: Transaction[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ...filters, limit: '50' });
    if (cursor) query.set('cursor', cursor);
    const page: ListEnvelope<Transaction> = await session.get(`/bff/api/v1/transactions?${query}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

test.beforeAll(async ({ request }) => {
  await ensureReady(request);
  await allowAllWithdrawals(request);
});

test('support pastes a correlationId in the palette, reads its timeline and exports a filtered list', async ({
  page,
  context,
  request,
}) => {
  const wallet = await createFundedWallet(request, 20);
  const treasury = await BffSession.signIn(request, 'treasury');
  const response = await request.post('/bff/api/v1/transactions', {
    data: {
      walletId: wallet.walletId,
      asset: 'TRX',
      toAddress: EXTERNAL_ADDRESS,
      amountAtomic: '2000000',
    },
    headers: treasury.mutationHeaders(`e2e-support-tools-${wallet.walletId}`),
  });
  expect(response.status()).toBe(201);
  const created = (await response.json()) as Transaction;
  const correlationId = created.correlationId ?? '';
  expect(correlationId).not.toBe('');

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'support');

  // (1) Ctrl+K, paste the id (a real clipboard paste), choose its timeline.
  await page.evaluate((text) => navigator.clipboard.writeText(text), correlationId);
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Go to' });
  const field = palette.getByRole('combobox', { name: 'Page or id' });
  await expect(field).toBeFocused();
  await page.keyboard.press('Control+V');
  await expect(field).toHaveValue(correlationId);
  const choice = palette.getByRole('option', { name: `Open the timeline of ${correlationId}` });
  await expect(choice).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(`/timeline?${new URLSearchParams({ q: correlationId })}`);
  await expect(page.getByRole('heading', { name: 'Timeline', level: 1 })).toBeVisible();

  const timeline = page.getByRole('list', { name: `Timeline of ${correlationId}` });
  const lines = timeline.getByRole('listitem');
  // Kinds are matched case-sensitively: each line's ids say "event id" in lower case.
  // The upstream's events arrive a moment after the 201; the page's Refresh asks again.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(lines.filter({ hasText: /Event/ }).first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(lines.filter({ hasText: /Operator action/ }).first()).toBeVisible();
  const call = lines
    .filter({ hasText: /Upstream call/ })
    .filter({ hasText: 'POST' })
    .first();
  await expect(call).toContainText('/api/v1/transactions');
  await expect(call).toContainText('201');
  // Every line carries the id it was found by, with a button that copies exactly that id.
  const copyId = timeline.getByRole('button', { name: `Copy correlation id ${correlationId}` });
  await expect(copyId).toHaveCount(await lines.count());
  await copyId.first().click();
  // The button says so, and the page's one polite live region too.
  await expect(copyId.first()).toContainText('Copied');
  await expect(
    page.locator('[aria-live="polite"]', { hasText: `correlation id ${correlationId} copied` }),
  ).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(correlationId);

  // (3) The timeline, as support reads it.
  await saveScreenshot(page, 'support-tools-1-timeline');

  // (2) A filter in the address, exported through every page of the BFF.
  const filters = { walletId: wallet.walletId };
  await page.goto(`/transactions?${new URLSearchParams(filters)}`);
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export transactions CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^transactions-.*\.csv$/);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toContainText(
    download.suggestedFilename(),
  );
  const csv = await readFile(await download.path(), 'utf8');
  const [header, ...rows] = parseRfc4180(csv);
  expect(header).toContain('id');
  const column = (name: string) => {
    const index = header?.indexOf(name) ?? -1;
    expect(index, `column ${name}`).toBeGreaterThanOrEqual(0);
    return index;
  };
  const idColumn = column('id');
  const walletColumn = column('walletId');
  for (const row of rows) expect(row).toHaveLength(header?.length ?? 0);
  expect(new Set(rows.map((row) => row[walletColumn]))).toEqual(new Set([wallet.walletId]));

  const support = await BffSession.signIn(request, 'support');
  const listed = await listAll(support, filters);
  expect(listed.length).toBeGreaterThanOrEqual(2);
  expect(rows).toHaveLength(listed.length);
  expect(rows.map((row) => row[idColumn]).sort()).toEqual(listed.map((t) => t.id).sort());
});
