import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LookupHeading } from './lookup-heading';

describe('LookupHeading', () => {
  it('names the id as searched and each kind it matched as', () => {
    render(
      <LookupHeading lead="Results for" query="corr-1" kinds={['correlationId', 'requestId']} />,
    );
    const line = screen.getByText('corr-1').parentElement;
    expect(line).toHaveTextContent('Results for corr-1matched ascorrelationIdrequestId');
    expect(line).toHaveAttribute('aria-live', 'polite');
  });

  it('says what the page says when nothing matched, and keeps what follows', () => {
    render(
      <LookupHeading lead="Timeline of" query="tx_9" kinds={[]} whenNone="— nothing matched">
        <button type="button">Refresh</button>
      </LookupHeading>,
    );
    const line = screen.getByText('tx_9').parentElement;
    expect(line).toHaveTextContent('Timeline of tx_9— nothing matchedRefresh');
    expect(line).not.toHaveTextContent('matched as');
  });
});
