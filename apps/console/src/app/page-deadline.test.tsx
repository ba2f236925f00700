import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  READ_DEADLINE_MS,
  isApiError,
  pageWithinDeadline,
  setReadDeadlineMs,
} from '../lib/api-client';
import { withPageDeadlines } from './router';
import { RouteError } from './shell/route-error';

afterEach(() => {
  setReadDeadlineMs(READ_DEADLINE_MS);
  vi.useRealTimers();
});

const never = () => new Promise<never>(() => undefined);

describe("a page's code under the read deadline", () => {
  it('fails a chunk the server never sends, as an error that says so', async () => {
    vi.useFakeTimers();
    const pending = pageWithinDeadline(never()).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(READ_DEADLINE_MS - 1);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(isApiError(error) && error.code).toBe('NETWORK_ERROR');
    expect((error as Error).message).toMatch(/did not send this page within 45 s/);
  });

  it('passes a chunk that comes, or its own failure, through unchanged', async () => {
    await expect(pageWithinDeadline(Promise.resolve('chunk'))).resolves.toBe('chunk');
    const failed = new TypeError('Failed to fetch dynamically imported module');
    await expect(pageWithinDeadline(Promise.reject(failed))).rejects.toBe(failed);
  });

  it('is put on every lazy route, however deep, and leaves the rest of a route alone', async () => {
    setReadDeadlineMs(20);
    const leaf = vi.fn(never);
    const routes: RouteObject[] = [
      { path: '/', children: [{ path: 'a', children: [{ path: 'b', lazy: leaf }] }] },
    ];
    const wrapped = withPageDeadlines(routes);
    const b = wrapped[0]?.children?.[0]?.children?.[0];
    expect(b?.path).toBe('b');
    const lazy = b?.lazy;
    if (typeof lazy !== 'function') throw new Error('no lazy');
    await expect(lazy()).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(leaf).toHaveBeenCalledTimes(1);
  });

  it('shows the failed page with a way to load it again', async () => {
    setReadDeadlineMs(20);
    const router = createMemoryRouter(
      withPageDeadlines([{ path: '/', lazy: never, ErrorBoundary: RouteError }]),
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('This page failed')).toBeInTheDocument();
    expect(screen.getByText(/did not send this page within 0 s/)).toBeInTheDocument();
    // The console's own code reads as words, not as "Error NETWORK_ERROR.".
    expect(
      screen.getByText("The console's server could not be reached or did not answer."),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Error NETWORK_ERROR/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /try again/i })).toBeInTheDocument();
  });
});
