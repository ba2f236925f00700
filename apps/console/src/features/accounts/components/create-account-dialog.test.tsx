import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { envelope, startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { CreateAccountForm } from './create-account-dialog';
import { checkMetadata } from '../model/metadata';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
});
afterAll(() => server.close());

const account = {
  id: 'acc_1',
  orgId: 'org_test',
  name: 'Merchant A',
  externalId: 'm-a',
  metadata: { region: 'EU' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

describe('checkMetadata', () => {
  it('accepts empty text and JSON objects, measuring the UTF-8 bytes that are sent', () => {
    expect(checkMetadata('  ')).toEqual({ isValid: true, value: undefined, bytes: 0 });
    expect(checkMetadata('{ "a" : "é" }')).toEqual({ isValid: true, value: { a: 'é' }, bytes: 10 });
  });

  it('refuses arrays, bad JSON and anything over 16 KiB', () => {
    expect(checkMetadata('[1]')).toMatchObject({
      isValid: false,
      problem: expect.stringMatching(/JSON object/),
    });
    expect(checkMetadata('{"a":')).toMatchObject({
      isValid: false,
      problem: expect.stringMatching(/Not valid JSON/),
    });
    const big = JSON.stringify({ blob: 'x'.repeat(16 * 1024) });
    expect(checkMetadata(big)).toMatchObject({
      isValid: false,
      problem: expect.stringMatching(/limit is 16,384 bytes/),
    });
  });
});

describe('CreateAccountForm', () => {
  it('shows a live size counter and blocks invalid metadata', () => {
    renderWithApp(<CreateAccountForm onCancel={vi.fn()} onCreated={vi.fn()} />);
    const metadata = screen.getByLabelText('Metadata (optional JSON object)');
    fireEvent.change(metadata, { target: { value: '{"region":"EU"}' } });
    expect(screen.getByText('15 / 16,384 bytes')).toBeInTheDocument();
    fireEvent.change(metadata, { target: { value: '{"region":' } });
    expect(screen.getByText(/Not valid JSON/)).toBeInTheDocument();
    expect(metadata).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends name, externalId and metadata with the CSRF header', async () => {
    server.route('POST', '/bff/api/v1/ledger/accounts', () => ({ status: 201, body: account }));
    const onCreated = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<CreateAccountForm onCancel={vi.fn()} onCreated={onCreated} />);
    await user.type(screen.getByLabelText('Name'), 'Merchant A');
    await user.type(screen.getByLabelText('External id (optional)'), 'm-a');
    fireEvent.change(screen.getByLabelText('Metadata (optional JSON object)'), {
      target: { value: '{"region":"EU"}' },
    });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => {
      expect(onCreated).toHaveBeenCalledWith(account);
    });
    const sent = server.requests.at(-1)!;
    expect(sent.body).toEqual({
      name: 'Merchant A',
      externalId: 'm-a',
      metadata: { region: 'EU' },
    });
    expect(sent.headers['x-csrf-token']).toBe('csrf-test-token');
  });

  it('explains an interface error with its code and a copyable request id', async () => {
    server.route('POST', '/bff/api/v1/ledger/accounts', () =>
      envelope('ACCOUNT_EXTERNAL_ID_CONFLICT', 409, 'req-conflict-1'),
    );
    const user = userEvent.setup();
    renderWithApp(<CreateAccountForm onCancel={vi.fn()} onCreated={vi.fn()} />);
    await user.type(screen.getByLabelText('Name'), 'Merchant A');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An account with this external id already exists.');
    expect(alert).toHaveTextContent('ACCOUNT_EXTERNAL_ID_CONFLICT');
    expect(screen.getByRole('button', { name: 'Copy request id' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Look up in Support' })).toHaveAttribute(
      'href',
      '/support?q=req-conflict-1',
    );
  });

  it('requires a name before sending anything', async () => {
    const before = server.requests.length;
    const user = userEvent.setup();
    renderWithApp(<CreateAccountForm onCancel={vi.fn()} onCreated={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Enter a name.')).toBeInTheDocument();
    expect(server.requests.length).toBe(before);
  });
});

describe('CreateAccountForm limits', () => {
  it("shows the protocol's own message next to a field it refuses, and sends nothing", async () => {
    const before = server.requests.length;
    const user = userEvent.setup();
    renderWithApp(<CreateAccountForm onCancel={vi.fn()} onCreated={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Merchant A' } });
    const externalId = screen.getByLabelText('External id (optional)');
    fireEvent.change(externalId, { target: { value: 'x'.repeat(129) } });
    expect(externalId).toHaveAccessibleDescription(/At most 128 characters\./);
    expect(externalId).toHaveAttribute('aria-invalid', 'true');
    const metadata = screen.getByLabelText('Metadata (optional JSON object)');
    fireEvent.change(metadata, {
      target: { value: JSON.stringify({ blob: 'x'.repeat(16 * 1024) }) },
    });
    expect(metadata).toHaveAccessibleDescription(
      /Metadata is 16,395 bytes; the limit is 16,384 bytes \(16 KiB\)\./,
    );
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(server.requests.length).toBe(before);
  });
});

describe('CreateAccountForm double submit', () => {
  it('a double click creates one account', async () => {
    // The answer waits until the test releases it, so both clicks land while it is in flight.
    let respond: () => void = () => undefined;
    server.route(
      'POST',
      '/bff/api/v1/ledger/accounts',
      () =>
        new Promise((resolve) => {
          respond = () => {
            resolve({ status: 201, body: account });
          };
        }),
    );
    const onCreated = vi.fn();
    renderWithApp(<CreateAccountForm onCancel={vi.fn()} onCreated={onCreated} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Once' } });
    const before = server.requests.length;
    const submit = screen.getByRole('button', { name: 'Create account' });
    fireEvent.click(submit);
    fireEvent.click(submit);
    await waitFor(() => {
      expect(server.requests.length - before).toBe(1);
    });
    respond();
    await waitFor(() => {
      expect(onCreated).toHaveBeenCalledTimes(1);
    });
    expect(server.requests.length - before).toBe(1);
  });
});
