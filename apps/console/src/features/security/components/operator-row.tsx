import { clsx } from 'clsx';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ROLES, type OperatorSummary, type Role } from '@settlement/protocol';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { Td } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { operatorPasskeysQuery, type OperatorChange } from '../api/operators';

export function OperatorRow({
  operator,
  isSelf,
  isBusy,
  onChange,
}: {
  operator: OperatorSummary;
  isSelf: boolean;
  isBusy: boolean;
  onChange: (change: OperatorChange) => void;
}) {
  const [isShowingPasskeys, setIsShowingPasskeys] = useState(false);
  const { username } = operator;
  return (
    <>
      <tr>
        <Td className="font-medium">
          {username} {isSelf ? <Badge tone="info">You</Badge> : null}{' '}
          {operator.isDisabled ? <Badge tone="danger">Disabled</Badge> : null}{' '}
          {operator.mustChangePassword ? <Badge tone="warning">One-time password</Badge> : null}
        </Td>
        <Td>
          <select
            aria-label={`Role of ${username}`}
            // Wide enough for "treasury" on a phone, where the actions column takes its share.
            className={clsx(inputClass, 'min-w-28')}
            value={operator.role}
            disabled={isBusy}
            onChange={(event) => {
              const role = ROLES.find((r) => r === event.target.value);
              if (role)
                onChange({ kind: 'update', username, change: { role: role satisfies Role } });
            }}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </Td>
        <Td>
          <Button
            size="sm"
            variant="ghost"
            className="whitespace-nowrap"
            aria-expanded={isShowingPasskeys}
            onClick={() => {
              setIsShowingPasskeys(!isShowingPasskeys);
            }}
          >
            {operator.passkeys} passkey{operator.passkeys === 1 ? '' : 's'}
          </Button>
        </Td>
        <Td>{operator.lastSignInAt ? <Time value={operator.lastSignInAt} /> : 'Never'}</Td>
        <Td
          isActions
          // On a phone the buttons stack in a narrow column that stays in view (see isActions).
          className="space-x-2 text-right whitespace-nowrap max-sm:w-44 max-sm:space-y-1 max-sm:space-x-0 max-sm:whitespace-normal max-sm:[&>*]:block max-sm:[&>*]:w-full"
        >
          <Link
            className="text-sm text-indigo-700 underline"
            to={`/sessions?username=${encodeURIComponent(username)}`}
          >
            Sessions
          </Link>
          <Button
            size="sm"
            disabled={isBusy}
            onClick={() => {
              onChange({ kind: 'reset-password', username });
            }}
          >
            Reset password of {username}
          </Button>
          {isSelf ? null : (
            <Button
              size="sm"
              variant={operator.isDisabled ? 'secondary' : 'danger'}
              disabled={isBusy}
              onClick={() => {
                onChange({ kind: 'update', username, change: { disabled: !operator.isDisabled } });
              }}
            >
              {operator.isDisabled ? `Enable ${username}` : `Disable ${username}`}
            </Button>
          )}
        </Td>
      </tr>
      {isShowingPasskeys ? (
        <tr>
          <td colSpan={5} className="bg-slate-50 px-4 py-2">
            <OperatorPasskeys username={username} isBusy={isBusy} onChange={onChange} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function OperatorPasskeys({
  username,
  isBusy,
  onChange,
}: {
  username: string;
  isBusy: boolean;
  onChange: (change: OperatorChange) => void;
}) {
  const query = useQuery(operatorPasskeysQuery(username));
  if (query.isPending) return <p className="text-sm text-slate-600">Loading passkeys…</p>;
  if (query.isError)
    return <p className="text-sm text-red-800">The passkeys could not be loaded.</p>;
  if (query.data.items.length === 0) return <p className="text-sm text-slate-600">No passkey.</p>;
  return (
    <ul className="space-y-1 text-sm">
      {query.data.items.map((passkey) => (
        <li key={passkey.id} className="flex items-center gap-3">
          <span className="font-medium">{passkey.name}</span>
          <span className="text-slate-600">
            last used {passkey.lastUsedAt ? <Time value={passkey.lastUsedAt} /> : 'never'}
          </span>
          <Button
            size="sm"
            variant="danger"
            disabled={isBusy}
            onClick={() => {
              onChange({ kind: 'remove-passkey', username, passkeyId: passkey.id });
            }}
          >
            Remove passkey {passkey.name}
          </Button>
        </li>
      ))}
    </ul>
  );
}
