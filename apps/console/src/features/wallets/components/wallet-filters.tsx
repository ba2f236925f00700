import { CHAINS, SORT_ORDERS, WALLET_SORT_FIELDS, WALLET_STATUSES } from '@settlement/protocol';
import { chainLabel } from '../../../components/ui/chain-badge';
import { CreatedRangeFields, FilterForm } from '../../../components/ui/filter-form';
import { SelectField, TextField } from '../../../components/ui/field';
import {
  SuggestedIdField,
  resolveId,
  type IdSuggestion,
} from '../../../components/ui/suggested-id-field';
import type { WalletFilters as Filters } from '../api/keys';

const any = { value: '', label: 'Any' };

export function WalletFilters({
  filters,
  accounts,
  onChange,
}: {
  filters: Filters;
  /** Accounts offered by name in the account id field. */
  accounts: readonly IdSuggestion[];
  onChange: (filters: Filters) => void;
}) {
  return (
    <FilterForm
      label="Filter wallets"
      filters={filters}
      onChange={onChange}
      className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] items-end gap-3 border-b border-slate-200 p-4"
      actionsClassName="col-span-full flex gap-2"
      resolve={(applied) => ({
        ...applied,
        accountId: resolveId(applied.accountId ?? '', accounts),
      })}
    >
      {(draft, set, bind) => (
        <>
          <SelectField
            label="Status"
            {...bind('status')}
            options={[any, ...WALLET_STATUSES.map((s) => ({ value: s, label: s }))]}
          />
          <SelectField
            label="Chain"
            {...bind('chain')}
            options={[any, ...CHAINS.map((c) => ({ value: c, label: chainLabel(c) }))]}
          />
          <TextField label="Address contains" {...bind('addressContains', { trim: true })} />
          <SuggestedIdField
            label="Account"
            suggestions={accounts}
            {...bind('accountId', { trim: true })}
          />
          <CreatedRangeFields draft={draft} set={set} />
          <SelectField
            label="Sort by"
            {...bind('sortBy')}
            options={[
              { value: '', label: 'Default (created)' },
              ...WALLET_SORT_FIELDS.map((f) => ({
                value: f,
                label: f === 'createdAt' ? 'Created' : 'Updated',
              })),
            ]}
          />
          <SelectField
            label="Order"
            {...bind('sortOrder')}
            options={[
              { value: '', label: 'Default (newest)' },
              ...SORT_ORDERS.map((o) => ({
                value: o,
                label: o === 'asc' ? 'Oldest first' : 'Newest first',
              })),
            ]}
          />
        </>
      )}
    </FilterForm>
  );
}
