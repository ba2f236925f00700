import { act, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApiOrigin } from '../../lib/api-client';
import { envelope, startTestServer, type TestServer } from '../../test/test-server';
import { startConsole } from './start-console';

let server: TestServer;
const probes: string[] = [];
let answerProbe: () => void = () => undefined;
const probeAnswer = new Promise<void>((resolve) => {
  answerProbe = resolve;
});
beforeAll(async () => {
  server = await startTestServer();
  setApiOrigin(server.origin);
  server.route('GET', '/bff/auth/me', async () => {
    probes.push('me');
    await probeAnswer;
    return envelope('UNAUTHENTICATED', 401, 'r-401');
  });
});
afterAll(async () => {
  setApiOrigin(null);
  await server.close();
});

/** A task boundary the test releases by hand. */
function manualTasks() {
  const waiting: (() => void)[] = [];
  return {
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release: async () => {
      waiting.shift()?.();
      // Lets the awaiting step run up to its next boundary.
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    get pending() {
      return waiting.length;
    },
  };
}

describe('startConsole', () => {
  it('sends the session probe, creates the router and, once the probe has answered, renders, in separate tasks', async () => {
    window.history.pushState({}, '', '/');
    const container = document.createElement('div');
    container.innerHTML = '<div role="status">Loading the console…</div>';
    document.body.append(container);
    const tasks = manualTasks();

    const started = startConsole(container, tasks.next);
    // The task that evaluated the entry's modules does nothing more: no probe yet.
    expect(tasks.pending).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(probes).toEqual([]);
    await tasks.release();
    // First task: only the query client and its probe; the router waits for the next task.
    expect(tasks.pending).toBe(1);
    await vi.waitFor(() => {
      expect(probes).toEqual(['me']);
    });
    expect(window.location.pathname).toBe('/');
    await tasks.release();
    // Second task: the router, then nothing until the probe has answered (rendered before, the
    // answer re-rendered everything in one synchronous task); the placeholder stays.
    await vi.waitFor(() => {
      expect(window.location.pathname).toBe('/');
    });
    expect(tasks.pending).toBe(0);
    expect(container.textContent).toBe('Loading the console…');
    answerProbe();
    await vi.waitFor(() => {
      expect(tasks.pending).toBe(1);
    });
    expect(container.textContent).toBe('Loading the console…');
    await tasks.release();
    // Third task: the first render (a transition), which replaces the placeholder.
    expect(await screen.findByRole('heading', { name: /sign in/i })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/sign-in');
    // Unmounted while the test's DOM exists: React work still scheduled when the file ends
    // would otherwise run after the environment is gone (an unhandled "window is not defined").
    const root = await started;
    act(() => {
      root.unmount();
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it("requests the landing page's chunk in its first task, before the router exists", async () => {
    window.history.pushState({}, '', '/');
    const importLandingPage = vi.fn();
    // One task boundary that passes, then one that never comes: only the first step runs.
    const boundaries = [Promise.resolve(), new Promise<void>(() => undefined)];
    void startConsole(
      document.createElement('div'),
      () => boundaries.shift() ?? new Promise<void>(() => undefined),
      importLandingPage,
    );
    expect(importLandingPage).not.toHaveBeenCalled();
    await vi.waitFor(() => {
      expect(importLandingPage).toHaveBeenCalledWith('/');
    });
  });
});
