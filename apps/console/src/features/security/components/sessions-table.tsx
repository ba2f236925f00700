import type { SessionInfo } from '@settlement/protocol';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { ActionsTh, Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

type Props = {
  label: string;
  sessions: readonly SessionInfo[];
  isBusy: boolean;
  onEnd: (id: string) => void;
};

function Device({ session }: { session: SessionInfo }) {
  return (
    <>
      <span className="font-medium" title={session.userAgent}>
        {session.device}
      </span>{' '}
      {session.isCurrent ? <Badge tone="info">This session</Badge> : null}
    </>
  );
}

function EndButton({
  session,
  isBusy,
  onEnd,
  className,
}: Omit<Props, 'label' | 'sessions'> & {
  session: SessionInfo;
  className?: string;
}) {
  if (session.isCurrent) return null;
  return (
    <Button
      size="sm"
      variant="danger"
      disabled={isBusy}
      className={className}
      onClick={() => {
        onEnd(session.id);
      }}
    >
      End session on {session.device}
    </Button>
  );
}

/**
 * On a phone each session is a card with its End button in reach: in the table, the button
 * sat in the last column, off screen behind a sideways scroll, exactly when an operator on a
 * phone wants to sign a lost laptop out.
 */
function SessionCards({ label, sessions, isBusy, onEnd }: Props) {
  return (
    <CardList label={label}>
      {sessions.map((session) => (
        <Card key={session.id}>
          <p>
            <Device session={session} />
          </p>
          <CardFields
            fields={[
              ['IP address', <span className="font-mono">{session.ip}</span>],
              ['Signed in', <Time value={session.createdAt} />],
              ['Last seen', <Time value={session.lastSeenAt} />],
            ]}
          />
          <EndButton session={session} isBusy={isBusy} onEnd={onEnd} className="w-full" />
        </Card>
      ))}
    </CardList>
  );
}

export function SessionsTable({ label, sessions, isBusy, onEnd }: Props) {
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone)
    return <SessionCards label={label} sessions={sessions} isBusy={isBusy} onEnd={onEnd} />;
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Device</Th>
          <Th>IP address</Th>
          <Th>Signed in</Th>
          <Th>Last seen</Th>
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id}>
            <Td>
              <Device session={session} />
            </Td>
            <Td className="font-mono text-xs">{session.ip}</Td>
            <Td>
              <Time value={session.createdAt} />
            </Td>
            <Td>
              <Time value={session.lastSeenAt} />
            </Td>
            <Td className="text-right">
              <EndButton session={session} isBusy={isBusy} onEnd={onEnd} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
