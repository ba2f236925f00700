import type { SessionInfo } from '@settlement/protocol';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';

export function SessionsTable({
  label,
  sessions,
  isBusy,
  onEnd,
}: {
  label: string;
  sessions: readonly SessionInfo[];
  isBusy: boolean;
  onEnd: (id: string) => void;
}) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Device</Th>
          <Th>IP address</Th>
          <Th>Signed in</Th>
          <Th>Last seen</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id}>
            <Td>
              <span className="font-medium" title={session.userAgent}>
                {session.device}
              </span>{' '}
              {session.isCurrent ? <Badge tone="info">This session</Badge> : null}
            </Td>
            <Td className="font-mono text-xs">{session.ip}</Td>
            <Td>
              <Time value={session.createdAt} />
            </Td>
            <Td>
              <Time value={session.lastSeenAt} />
            </Td>
            <Td className="text-right">
              {session.isCurrent ? null : (
                <Button
                  size="sm"
                  variant="danger"
                  disabled={isBusy}
                  onClick={() => {
                    onEnd(session.id);
                  }}
                >
                  End session on {session.device}
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
