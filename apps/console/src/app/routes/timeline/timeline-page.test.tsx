import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CORRELATION_ID,
  FAILED_REQUEST_ID,
  explanationOf,
  withdrawalTimeline,
} from '../../../features/timeline/timeline-fixtures';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { TimelinePage } from './timeline-page';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/support/timeline', (request) => ({
    body: withdrawalTimeline(new URL(request.path, 'http://x').searchParams.get('q') ?? ''),
  }));
  server.route('GET', '/bff/support/requests/*', () => ({ body: explanationOf('skew') }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const paths = () => server.requests.map((r) => r.path);

async function lines() {
  const list = await screen.findByRole('list', { name: `Timeline of ${CORRELATION_ID}` });
  return within(list).getAllByRole('listitem');
}

describe('TimelinePage', () => {
  it('asks for the id in the address (pasted blanks removed) and shows every kind in time order', async () => {
    renderWithApp(<TimelinePage />, { path: `/timeline?q=%20${CORRELATION_ID}%0A` });
    const items = await lines();
    expect(paths()).toEqual([`/bff/support/timeline?q=${CORRELATION_ID}`]);
    expect(items.map((li) => li.querySelector('time')?.getAttribute('datetime'))).toEqual(
      withdrawalTimeline().items.map((i) => i.at),
    );
    expect(
      items.map(
        (li) =>
          /Operator action|Upstream call|Approval|Event|Balance effect|Confirmation/.exec(
            li.textContent,
          )?.[0],
      ),
    ).toEqual([
      'Operator action',
      'Approval',
      'Upstream call',
      'Upstream call',
      'Event',
      'Balance effect',
      'Confirmation',
    ]);
    const [, , failed, succeeded, event, effect, confirmation] = items;
    expect(failed).toHaveTextContent('401');
    expect(failed).toHaveTextContent('41 ms');
    expect(failed).toHaveTextContent(`request id${FAILED_REQUEST_ID}`);
    expect(succeeded).toHaveTextContent('201');
    expect(succeeded).toHaveTextContent('upstream request idup-req-77');
    expect(event).toHaveTextContent('deduplicated: first delivery kept');
    expect(event).toHaveTextContent('topic envelope');
    expect(effect).toHaveTextContent('reserved +20000000 TRX');
    expect(confirmation).toHaveTextContent('19 of 19 confirmations');
  });

  it('copies an id of a line and opens the timeline of another id from it', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<TimelinePage />, { path: `/timeline?q=${CORRELATION_ID}` });
    const succeeded = (await lines())[3];
    if (!succeeded) throw new Error('no line');
    await user.click(within(succeeded).getByRole('button', { name: 'Copy transaction id tx_42' }));
    expect(await navigator.clipboard.readText()).toBe('tx_42');

    await user.click(within(succeeded).getByRole('link', { name: 'tx_42' }));
    expect(router.state.location.search).toBe('?q=tx_42');
    expect(await screen.findByRole('list', { name: 'Timeline of tx_42' })).toBeInTheDocument();
  });

  it('explains a failed upstream call on request, in words, and offers it on failed calls only', async () => {
    const user = userEvent.setup();
    renderWithApp(<TimelinePage />, { path: `/timeline?q=${CORRELATION_ID}` });
    const items = await lines();
    const whyButtons = screen.getAllByRole('button', { name: 'Why did it fail?' });
    expect(whyButtons).toHaveLength(1);
    const failed = items[2];
    if (!failed) throw new Error('no line');
    const why = within(failed).getByRole('button', { name: 'Why did it fail?' });
    expect(why).toHaveAttribute('aria-expanded', 'false');
    await user.click(why);
    expect(why).toHaveAttribute('aria-expanded', 'true');
    const region = await screen.findByRole('region', {
      name: `Why request ${FAILED_REQUEST_ID} failed`,
    });
    expect(
      await within(region).findByText(
        /412 seconds ahead of the upstream's clock \(allowed ±300 s\)/,
      ),
    ).toBeInTheDocument();
    expect(paths()).toContain(`/bff/support/requests/${FAILED_REQUEST_ID}/explanation`);
  });

  it('looks up the id typed in the form and keeps it in the address', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<TimelinePage />, { path: '/timeline' });
    expect(screen.getByText('Paste any id to see its timeline')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Id' }), `  ${CORRELATION_ID} `);
    await user.click(screen.getByRole('button', { name: 'Show timeline' }));
    expect(router.state.location.search).toBe(`?q=${CORRELATION_ID}`);
    expect(await lines()).toHaveLength(7);
  });
});
