import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { explanationOf } from '../timeline-fixtures';
import { ExplanationView } from './request-explanation';

function show(cause: Parameters<typeof explanationOf>[0]) {
  const { container } = render(<ExplanationView explanation={explanationOf(cause)} />);
  return container;
}

describe('ExplanationView', () => {
  it('a skewed timestamp: the seconds ahead and the allowed window', () => {
    show('skew');
    expect(screen.getByText('Timestamp outside the allowed clock skew')).toBeInTheDocument();
    expect(screen.getByText(/412 seconds ahead of the upstream's clock/)).toHaveTextContent(
      '(allowed ±300 s)',
    );
  });

  it('a reused nonce: the nonce and the request that used it first', () => {
    const view = show('nonce');
    expect(screen.getByText('Nonce already used')).toBeInTheDocument();
    expect(view).toHaveTextContent('nonce-5e was first used by request req-bff-0001');
    expect(view).toHaveTextContent('nonces are remembered 600 s');
  });

  it('a body-hash mismatch: both hashes, each copyable', () => {
    show('body-hash');
    expect(screen.getByText('Body hash does not match the bytes sent')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy declared body hash' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy hash of bytes sent' })).toBeInTheDocument();
    expect(screen.getByTitle('aa11')).toBeInTheDocument();
    expect(screen.getByTitle('bb22')).toBeInTheDocument();
  });

  it('an unknown key and a missing scope: the key, its scopes and the scope needed', () => {
    const unknown = show('unknown-key');
    expect(unknown).toHaveTextContent('key_old is not configured in the BFF; scopes: none');
    unknown.remove();
    const scope = show('scope');
    expect(screen.getByText('API key lacks the required scope')).toBeInTheDocument();
    expect(scope).toHaveTextContent(
      'key_live_1 is configured; scopes: transactions:read; this call needs transactions:write',
    );
  });

  it('a 409 idempotency conflict: which fingerprint part differs from the first use', () => {
    show('idempotency');
    const table = screen.getByRole('table', { name: 'Idempotency fingerprint' });
    const body = within(table)
      .getByRole('rowheader', { name: 'Body hash (differs)' })
      .closest('tr');
    expect(body).toHaveTextContent('aa11cc33');
    expect(within(table).getByRole('rowheader', { name: 'Method' })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'Target' })).toBeInTheDocument();
    expect(screen.getByText(/Differs:/)).toHaveTextContent('Differs: bodyHash.');
  });

  it('a 422: the field and the rule', () => {
    const view = show('validation');
    expect(view).toHaveTextContent(
      "Field toAddress: must be a valid address of the wallet's chain",
    );
    expect(screen.getByRole('list', { name: 'Findings' })).toHaveTextContent('field toAddress');
  });

  it("shows the attempt's non-secret signed lines", () => {
    const view = show('skew');
    expect(view).toHaveTextContent('noncenonce-5e');
    expect(view).toHaveTextContent('key idkey_live_1');
  });
});
