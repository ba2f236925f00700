import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Card, CardFields, CardList } from './card-list';

describe('a list of cards', () => {
  it('is a named list, ordered when the order means something', () => {
    const { rerender } = render(
      <CardList label="Rules">
        <Card>first</Card>
        <Card>second</Card>
      </CardList>,
    );
    const list = screen.getByRole('list', { name: 'Rules' });
    expect(list.tagName).toBe('UL');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['first', 'second']);
    rerender(
      <CardList label="Rules" isOrdered>
        <Card>first</Card>
      </CardList>,
    );
    expect(screen.getByRole('list', { name: 'Rules' }).tagName).toBe('OL');
  });

  it('states each field a row has as a term and its value, and leaves out the ones it lacks', () => {
    render(
      <CardFields
        fields={[
          ['Asset', 'TRX'],
          ['Memo', null],
          ['Window', '24 h'],
          ['Note', undefined],
          ['Count', 0],
        ]}
      />,
    );
    expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'Asset',
      'Window',
      'Count',
    ]);
    expect(screen.getAllByRole('definition').map((value) => value.textContent)).toEqual([
      'TRX',
      '24 h',
      '0',
    ]);
  });
});
