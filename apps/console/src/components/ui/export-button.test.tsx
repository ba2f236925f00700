import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiOrigin } from '../../lib/api-client';
import { ExportButton } from './export-button';

/**
 * A BFF stand-in that streams its CSV in steps the test releases one by one, so the progress
 * shown while the export runs can be asserted.
 */
type Step = (res: ServerResponse) => void;
let steps: Step[] = [];
let paths: string[] = [];
let releaseNext: () => void = () => undefined;
const server = createServer((req, res) => {
  paths.push(req.url ?? '');
  const queue = [...steps];
  const next = () => {
    const step = queue.shift();
    if (step) step(res);
    if (queue.length > 0) releaseNext = next;
  };
  next();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setApiOrigin(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => {
  setApiOrigin(null);
  server.close();
});

const saved: { name: string; blob: Blob }[] = [];
beforeEach(() => {
  paths = [];
  saved.length = 0;
  let blob: Blob | null = null;
  URL.createObjectURL = vi.fn((value: Blob) => {
    blob = value;
    return 'blob:export';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    if (blob) saved.push({ name: this.download, blob });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** jsdom's Blob has no text(); FileReader reads it as the browser would. */
function textOf(blob: Blob | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (!blob) {
      reject(new Error('nothing saved'));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      resolve(reader.result);
    };
    reader.readAsText(blob);
  });
}

const csvHead = (res: ServerResponse) => {
  res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': 'attachment; filename="transactions-2026.csv"',
  });
  res.write('id,detail\r\ntx_1,"two\r\nlines"\r\ntx_2,x\r\n');
};

describe('ExportButton', () => {
  it('streams the export with the filters, shows rows and bytes so far, then saves the whole file', async () => {
    steps = [
      csvHead,
      (res) => {
        res.end("tx_3,'=1+1\r\n");
      },
    ];
    const user = userEvent.setup();
    render(<ExportButton subject="transactions" filters={{ status: 'PENDING', chain: '' }} />);
    await user.click(screen.getByRole('button', { name: 'Export transactions CSV' }));

    // The status fills in as chunks arrive: wait for the whole first step to be counted.
    await waitFor(() => {
      expect(screen.getByRole('status')).toHaveTextContent('Exporting… 2 rows, 38 B so far');
    });
    expect(screen.getByRole('button', { name: 'Cancel export' })).toBeInTheDocument();
    expect(paths).toEqual(['/bff/export/transactions.csv?status=PENDING']);

    releaseNext();
    expect(await screen.findByText('Saved transactions-2026.csv (3 rows)')).toBeInTheDocument();
    expect(saved.map((s) => s.name)).toEqual(['transactions-2026.csv']);
    expect(await textOf(saved[0]?.blob)).toBe(
      'id,detail\r\ntx_1,"two\r\nlines"\r\ntx_2,x\r\ntx_3,\'=1+1\r\n',
    );
  });

  it.each([
    {
      how: 'the connection is cut after the headers',
      last: (res: ServerResponse) => {
        res.write('tx_3,par');
        res.destroy();
      },
      reason: 'The download stopped before its end.',
    },
    {
      how: 'the body ends cleanly in the middle of a row',
      last: (res: ServerResponse) => {
        res.end('tx_3,"par');
      },
      reason: 'The export ended in the middle of a row',
    },
  ])('reports an incomplete export when $how and saves nothing', async ({ last, reason }) => {
    steps = [csvHead, last];
    const user = userEvent.setup();
    render(<ExportButton subject="wallets" />);
    await user.click(screen.getByRole('button', { name: 'Export wallets CSV' }));
    await screen.findByText(/Exporting… 2 rows/);
    releaseNext();
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Export wallets CSV' })).toBeInTheDocument();
  });

  it("shows the BFF's refusal from its error envelope", async () => {
    steps = [
      (res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            code: 'INVALID_QUERY_PARAMETER',
            message: 'sortBy is not a filter of this list.',
            details: [],
            requestId: 'req-export-1',
            retryable: false,
          }),
        );
      },
    ];
    const user = userEvent.setup();
    render(<ExportButton subject="accounts" filters={{ sortBy: 'x' }} />);
    await user.click(screen.getByRole('button', { name: 'Export accounts CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'sortBy is not a filter of this list.',
    );
    expect(saved).toEqual([]);
  });

  it('cancelling stops the download, saves nothing and offers the export again', async () => {
    steps = [csvHead, (res) => res.end()];
    const user = userEvent.setup();
    render(<ExportButton subject="audit" />);
    await user.click(screen.getByRole('button', { name: 'Export audit CSV' }));
    await screen.findByText(/Exporting… 2 rows/);
    await user.click(screen.getByRole('button', { name: 'Cancel export' }));
    expect(await screen.findByRole('button', { name: 'Export audit CSV' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    releaseNext();
    expect(saved).toEqual([]);
  });
});
