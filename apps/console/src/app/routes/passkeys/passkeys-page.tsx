import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import {
  passkeysQuery,
  useAddPasskeyMutation,
  useRemovePasskeyMutation,
} from '../../../features/security/api/passkeys';
import { PasskeysTable } from '../../../features/security/components/passkeys-table';

/** The operator's passkeys: several, named, last use shown; add one, remove one. */
export function PasskeysPage() {
  const query = useQuery(passkeysQuery());
  const add = useAddPasskeyMutation();
  const remove = useRemovePasskeyMutation();
  const [name, setName] = useState('');
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    add.mutate(name.trim(), {
      onSuccess: () => {
        setName('');
      },
    });
  };
  const items = query.data?.items ?? [];
  const isLastProtected = (query.data?.requirePasskeys ?? false) && items.length <= 1;

  return (
    <>
      <PageHeader
        title="Passkeys"
        description="Passkeys sign you in after your password and confirm money movements and other sensitive changes."
      />
      <div className="space-y-6">
        <Panel title="Add a passkey">
          <form onSubmit={handleSubmit} className="flex flex-wrap items-end gap-3 p-4" noValidate>
            <div className="min-w-64 flex-1">
              <TextField
                label="Passkey name"
                name="passkeyName"
                placeholder="Work laptop"
                maxLength={64}
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                }}
              />
            </div>
            <Button type="submit" variant="primary" disabled={add.isPending || !name.trim()}>
              {add.isPending ? 'Waiting for your device…' : 'Add passkey'}
            </Button>
          </form>
          {add.error ? (
            <div className="px-4 pb-4">
              <ErrorPanel error={add.error} title="The passkey was not added" />
            </div>
          ) : null}
        </Panel>
        <Panel title="Your passkeys">
          <QueryView
            query={query}
            skeleton={<TableSkeleton label="Loading your passkeys" />}
            isEmpty={items.length === 0}
            empty={<p className="p-4 text-sm text-slate-600">You have no passkey yet.</p>}
          >
            {() => (
              <PasskeysTable
                passkeys={items}
                isBusy={remove.isPending}
                isLastProtected={isLastProtected}
                onRemove={(id) => {
                  remove.mutate(id);
                }}
              />
            )}
          </QueryView>
          {remove.error ? (
            <div className="px-4 pb-4">
              <ErrorPanel error={remove.error} title="The passkey was not removed" />
            </div>
          ) : null}
        </Panel>
      </div>
    </>
  );
}
