import { SupportSearchResultSchema } from '@settlement/protocol';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { SupportPage } from './support-page';
import { expectStillWaitingOnceSlow } from '../../../test/slow-answer';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/api/v1/assets', () => ({ body: { items: [] } }));
  server.route('GET', '/bff/support/search', (request) => {
    const q = new URL(request.path, 'http://x').searchParams.get('q');
    // A search the service never answers (a frozen upstream).
    if (q === 'hung') return new Promise<never>(() => undefined);
    return { body: SupportSearchResultSchema.parse({ query: q, kinds: ['correlationId'] }) };
  });
});
afterAll(() => server.close());

describe('SupportPage', () => {
  it('links the searched id (cleaned of pasted blanks) to its timeline', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<SupportPage />, { path: '/support?q=%20corr-7f3a%0A' });
    await screen.findByText('correlationId');
    const link = screen.getByRole('link', { name: 'Timeline of corr-7f3a' });
    expect(link).toHaveAttribute('href', '/timeline?q=corr-7f3a');
    await user.click(link);
    expect(router.state.location.pathname).toBe('/timeline');
    expect(router.state.location.search).toBe('?q=corr-7f3a');
  });

  it('says a search the service is slow to answer is still waiting', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithApp(<SupportPage />, { path: '/support?q=hung' });
      expect(await screen.findByRole('status', { name: 'Searching' })).toBeInTheDocument();
      await expectStillWaitingOnceSlow();
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers no timeline link before anything is searched', () => {
    renderWithApp(<SupportPage />, { path: '/support' });
    expect(screen.queryByRole('link', { name: /Timeline/ })).not.toBeInTheDocument();
  });
});
