import { clsx } from 'clsx';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ROLES, type OperatorSummary, type Role } from '@settlement/protocol';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, CardFields } from '../../../components/ui/card-list';
import { inputClass } from '../../../components/ui/field';
import { PendingNotice } from '../../../components/ui/query-view';
import { Td } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { operatorPasskeysQuery, type OperatorChange } from '../api/operators';

type Props = {
  operator: OperatorSummary;
  isSelf: boolean;
  isBusy: boolean;
  onChange: (change: OperatorChange) => void;
};

function OperatorName({ operator, isSelf }: Pick<Props, 'operator' | 'isSelf'>) {
  return (
    <>
      {operator.username} {isSelf ? <Badge tone="info">You</Badge> : null}{' '}
      {operator.isDisabled ? <Badge tone="danger">Disabled</Badge> : null}{' '}
      {operator.mustChangePassword ? <Badge tone="warning">One-time password</Badge> : null}
    </>
  );
}

function RoleSelect({ operator, isBusy, onChange }: Omit<Props, 'isSelf'>) {
  const { username } = operator;
  return (
    <select
      aria-label={`Role of ${username}`}
      // Wide enough for "treasury" in however narrow a column.
      className={clsx(inputClass, 'min-w-28')}
      value={operator.role}
      disabled={isBusy}
      onChange={(event) => {
        const role = ROLES.find((r) => r === event.target.value);
        if (role) onChange({ kind: 'update', username, change: { role: role satisfies Role } });
      }}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

/** Shows or hides the operator's passkeys (OperatorPasskeys). */
function PasskeysToggle({
  operator,
  isShowing,
  onToggle,
}: {
  operator: OperatorSummary;
  isShowing: boolean;
  onToggle: () => void;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className="whitespace-nowrap"
      aria-expanded={isShowing}
      onClick={onToggle}
    >
      {operator.passkeys} passkey{operator.passkeys === 1 ? '' : 's'}
    </Button>
  );
}

function LastSignIn({ operator }: { operator: OperatorSummary }) {
  return operator.lastSignInAt ? <Time value={operator.lastSignInAt} /> : 'Never';
}

/** Sessions, Reset password and (of another operator) Disable or Enable. */
function OperatorActions({
  operator,
  isSelf,
  isBusy,
  onChange,
  isFullWidth = false,
}: Props & { isFullWidth?: boolean }) {
  const { username } = operator;
  const width = isFullWidth ? 'w-full' : undefined;
  return (
    <>
      <Link
        className={
          isFullWidth
            ? clsx(buttonClass('secondary', 'sm'), 'w-full')
            : 'text-sm text-indigo-700 underline'
        }
        to={`/sessions?username=${encodeURIComponent(username)}`}
      >
        Sessions
      </Link>
      <Button
        size="sm"
        disabled={isBusy}
        className={width}
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
          className={width}
          onClick={() => {
            onChange({ kind: 'update', username, change: { disabled: !operator.isDisabled } });
          }}
        >
          {operator.isDisabled ? `Enable ${username}` : `Disable ${username}`}
        </Button>
      )}
    </>
  );
}

export function OperatorRow(props: Props) {
  const { operator, isSelf, isBusy, onChange } = props;
  const [isShowingPasskeys, setIsShowingPasskeys] = useState(false);
  return (
    <>
      <tr>
        <Td className="font-medium">
          <OperatorName operator={operator} isSelf={isSelf} />
        </Td>
        <Td>
          <RoleSelect operator={operator} isBusy={isBusy} onChange={onChange} />
        </Td>
        <Td>
          <PasskeysToggle
            operator={operator}
            isShowing={isShowingPasskeys}
            onToggle={() => {
              setIsShowingPasskeys(!isShowingPasskeys);
            }}
          />
        </Td>
        <Td>
          <LastSignIn operator={operator} />
        </Td>
        <Td className="space-x-2 text-right whitespace-nowrap">
          <OperatorActions {...props} />
        </Td>
      </tr>
      {isShowingPasskeys ? (
        <tr>
          <td colSpan={5} className="bg-slate-50 px-4 py-2">
            <OperatorPasskeys username={operator.username} isBusy={isBusy} onChange={onChange} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/**
 * An operator as a card of a `CardList`, for phone-sized screens: in the table the buttons,
 * squeezed into a column that stayed in view, wrapped to three or four lines each.
 */
export function OperatorCard(props: Props) {
  const { operator, isSelf, isBusy, onChange } = props;
  const [isShowingPasskeys, setIsShowingPasskeys] = useState(false);
  return (
    <Card>
      <p className="font-medium">
        <OperatorName operator={operator} isSelf={isSelf} />
      </p>
      <CardFields
        fields={[
          ['Role', <RoleSelect operator={operator} isBusy={isBusy} onChange={onChange} />],
          [
            'Passkeys',
            <PasskeysToggle
              operator={operator}
              isShowing={isShowingPasskeys}
              onToggle={() => {
                setIsShowingPasskeys(!isShowingPasskeys);
              }}
            />,
          ],
          ['Last sign-in', <LastSignIn operator={operator} />],
        ]}
      />
      {isShowingPasskeys ? (
        <div className="rounded-md bg-slate-50 px-3 py-2">
          <OperatorPasskeys
            username={operator.username}
            isBusy={isBusy}
            onChange={onChange}
            isStacked
          />
        </div>
      ) : null}
      <div className="flex flex-col gap-2">
        <OperatorActions {...props} isFullWidth />
      </div>
    </Card>
  );
}

/** `isStacked`: each passkey's Remove button under its name, full width (on a card). */
function OperatorPasskeys({
  username,
  isBusy,
  onChange,
  isStacked = false,
}: {
  username: string;
  isBusy: boolean;
  onChange: (change: OperatorChange) => void;
  isStacked?: boolean;
}) {
  const query = useQuery(operatorPasskeysQuery(username));
  if (query.isPending) {
    return (
      <>
        <p className="text-sm text-slate-600">Loading passkeys…</p>
        <PendingNotice query={query} />
      </>
    );
  }
  if (query.isError)
    return <p className="text-sm text-red-800">The passkeys could not be loaded.</p>;
  if (query.data.items.length === 0) return <p className="text-sm text-slate-600">No passkey.</p>;
  return (
    <ul className={isStacked ? 'space-y-3 text-sm' : 'space-y-1 text-sm'}>
      {query.data.items.map((passkey) => (
        <li
          key={passkey.id}
          className={clsx('flex items-center', isStacked ? 'flex-wrap gap-x-3 gap-y-1' : 'gap-3')}
        >
          <span className="font-medium">{passkey.name}</span>
          <span className="text-slate-600">
            last used {passkey.lastUsedAt ? <Time value={passkey.lastUsedAt} /> : 'never'}
          </span>
          <Button
            size="sm"
            variant="danger"
            disabled={isBusy}
            className={isStacked ? 'w-full' : undefined}
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
