import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SubmitEvent } from 'react';
import { ROLES, type OneTimePassword, type OperatorSummary, type Role } from '@settlement/protocol';
import { Button } from '../../../components/ui/button';
import { CardList } from '../../../components/ui/card-list';
import { CopyButton } from '../../../components/ui/copy-button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { Panel } from '../../../components/ui/panel';
import { QueryView } from '../../../components/ui/query-view';
import { TableSkeleton } from '../../../components/ui/skeleton';
import { ActionsTh, Table, Th } from '../../../components/ui/table';
import {
  operatorsQuery,
  useOperatorMutation,
  type OperatorChange,
} from '../../../features/security/api/operators';
import { OperatorCard, OperatorRow } from '../../../features/security/components/operator-row';
import { roleReason } from '../../../features/session/permissions';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { useSession } from '../../shell/session-context';

/** Admin: operators, their roles and status; add one, reset a password, disable. */
export function OperatorsPage() {
  const { session } = useSession();
  const isAdmin = session.operator.role === 'admin';
  const query = useQuery({ ...operatorsQuery(), enabled: isAdmin });
  const change = useOperatorMutation();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [issued, setIssued] = useState<OneTimePassword | null>(null);
  const isPhone = useMediaQuery(PHONE_QUERY);

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Operators" />
        <p className="text-sm text-slate-600">{roleReason('manage operators', 'admin')}</p>
      </>
    );
  }

  const handleIssued = (result: OneTimePassword | null) => {
    if (result) setIssued(result);
  };
  const handleSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    change.mutate(
      { kind: 'create', operator: { username: username.trim(), role } },
      {
        onSuccess: (result) => {
          handleIssued(result);
          setUsername('');
        },
      },
    );
  };
  const items = query.data?.items ?? [];
  const rowProps = (operator: OperatorSummary) => ({
    operator,
    isSelf: operator.username === session.operator.username,
    isBusy: change.isPending,
    onChange: (next: OperatorChange) => {
      change.mutate(next, { onSuccess: handleIssued });
    },
  });

  return (
    <>
      <PageHeader
        title="Operators"
        description="Who can use this console. A new operator gets a one-time password, shown once, to replace at first sign-in."
      />
      <div className="space-y-6">
        {issued ? (
          <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
            <p className="font-medium text-amber-900">
              One-time password for {issued.operator.username} (shown only now):
            </p>
            <p className="mt-2 flex items-center gap-2">
              <code className="rounded bg-white px-2 py-1 font-mono" aria-label="One-time password">
                {issued.oneTimePassword}
              </code>
              <CopyButton value={issued.oneTimePassword} label="Copy the one-time password" />
            </p>
            <Button
              size="sm"
              className="mt-3"
              onClick={() => {
                setIssued(null);
              }}
            >
              I have passed it on
            </Button>
          </div>
        ) : null}
        <Panel title="Add an operator">
          <form onSubmit={handleSubmit} className="flex flex-wrap items-end gap-3 p-4" noValidate>
            <div className="min-w-48 flex-1">
              <TextField
                label="Username"
                name="newUsername"
                autoComplete="off"
                value={username}
                onChange={(event) => {
                  setUsername(event.target.value);
                }}
              />
            </div>
            <SelectField
              label="Role"
              name="newRole"
              value={role}
              options={ROLES.map((r) => ({ value: r, label: r }))}
              onChange={(event) => {
                setRole(ROLES.find((r) => r === event.target.value) ?? 'support');
              }}
            />
            <Button type="submit" variant="primary" disabled={change.isPending || !username.trim()}>
              Add operator
            </Button>
          </form>
        </Panel>
        {change.error ? <ErrorPanel error={change.error} title="The change was not made" /> : null}
        <Panel title="Operators">
          <QueryView query={query} skeleton={<TableSkeleton label="Loading operators" />}>
            {() =>
              isPhone ? (
                <CardList label="Operators">
                  {items.map((operator) => (
                    <OperatorCard key={operator.username} {...rowProps(operator)} />
                  ))}
                </CardList>
              ) : (
                <Table label="Operators">
                  <thead>
                    <tr>
                      <Th>Operator</Th>
                      <Th>Role</Th>
                      <Th>Passkeys</Th>
                      <Th>Last sign-in</Th>
                      <ActionsTh />
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((operator) => (
                      <OperatorRow key={operator.username} {...rowProps(operator)} />
                    ))}
                  </tbody>
                </Table>
              )
            }
          </QueryView>
        </Panel>
      </div>
    </>
  );
}
