import { CHAINS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@settlement/protocol';
import { CreatedRangeFields, FilterForm } from '../../../components/ui/filter-form';
import { SelectField, TextField } from '../../../components/ui/field';
import type { TransactionFilters as Filters } from '../api/keys';

const any = { value: '', label: 'Any' };

export function TransactionFilters({
  filters,
  assets,
  onChange,
}: {
  filters: Filters;
  assets: string[];
  onChange: (filters: Filters) => void;
}) {
  return (
    <FilterForm
      label="Filter transactions"
      filters={filters}
      onChange={onChange}
      className="grid grid-cols-2 items-end gap-3 border-b border-slate-200 p-4 md:grid-cols-3 xl:grid-cols-5"
      actionsClassName="flex gap-2"
    >
      {(draft, set) => (
        <>
          <SelectField
            label="Status"
            value={draft.status ?? ''}
            onChange={(event) => {
              set('status', event.target.value);
            }}
            options={[
              any,
              ...TRANSACTION_STATUSES.map((s) => ({ value: s, label: s.replaceAll('_', ' ') })),
            ]}
          />
          <SelectField
            label="Type"
            value={draft.type ?? ''}
            onChange={(event) => {
              set('type', event.target.value);
            }}
            options={[
              any,
              ...TRANSACTION_TYPES.map((t) => ({ value: t, label: t.replaceAll('_', ' ') })),
            ]}
          />
          <SelectField
            label="Chain"
            value={draft.chain ?? ''}
            onChange={(event) => {
              set('chain', event.target.value);
            }}
            options={[any, ...CHAINS.map((c) => ({ value: c, label: c }))]}
          />
          <SelectField
            label="Asset"
            value={draft.asset ?? ''}
            onChange={(event) => {
              set('asset', event.target.value);
            }}
            options={[any, ...assets.map((a) => ({ value: a, label: a }))]}
          />
          <TextField
            label="Client reference"
            value={draft.clientReference ?? ''}
            onChange={(event) => {
              set('clientReference', event.target.value.trim());
            }}
          />
          <TextField
            label="Account id"
            value={draft.accountId ?? ''}
            onChange={(event) => {
              set('accountId', event.target.value.trim());
            }}
          />
          <TextField
            label="Wallet id"
            value={draft.walletId ?? ''}
            onChange={(event) => {
              set('walletId', event.target.value.trim());
            }}
          />
          <CreatedRangeFields draft={draft} set={set} />
        </>
      )}
    </FilterForm>
  );
}
