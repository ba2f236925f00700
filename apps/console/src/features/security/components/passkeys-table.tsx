import type { Passkey } from '@settlement/protocol';
import { Button } from '../../../components/ui/button';
import { Card, CardFields, CardList } from '../../../components/ui/card-list';
import { ActionsTh, Table, Td, Th } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

const LABEL = 'Your passkeys';

type Props = {
  passkeys: readonly Passkey[];
  isBusy: boolean;
  /** Passkeys are required and this is the last one: it cannot be removed. */
  isLastProtected: boolean;
  onRemove: (id: string) => void;
};

function LastUsed({ passkey }: { passkey: Passkey }) {
  return passkey.lastUsedAt ? <Time value={passkey.lastUsedAt} /> : 'Never';
}

function RemoveButton({
  passkey,
  isBusy,
  isLastProtected,
  onRemove,
  className,
}: Omit<Props, 'passkeys'> & { passkey: Passkey; className?: string }) {
  return (
    <Button
      size="sm"
      variant="danger"
      disabled={isBusy || isLastProtected}
      title={
        isLastProtected
          ? 'Passkeys are required: add another one before removing this one.'
          : undefined
      }
      className={className}
      onClick={() => {
        onRemove(passkey.id);
      }}
    >
      Remove {passkey.name}
    </Button>
  );
}

/** On a phone each passkey is a card, its Remove button full width under its dates. */
function PasskeyCards({ passkeys, ...actions }: Props) {
  return (
    <CardList label={LABEL}>
      {passkeys.map((passkey) => (
        <Card key={passkey.id}>
          <p className="font-medium">{passkey.name}</p>
          <CardFields
            fields={[
              ['Added', <Time value={passkey.createdAt} />],
              ['Last used', <LastUsed passkey={passkey} />],
            ]}
          />
          <RemoveButton passkey={passkey} {...actions} className="w-full" />
        </Card>
      ))}
    </CardList>
  );
}

/** The signed-in operator's passkeys, with a Remove button each. */
export function PasskeysTable(props: Props) {
  const { passkeys, ...actions } = props;
  const isPhone = useMediaQuery(PHONE_QUERY);
  if (isPhone) return <PasskeyCards {...props} />;
  return (
    <Table label={LABEL}>
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>Added</Th>
          <Th>Last used</Th>
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {passkeys.map((passkey) => (
          <tr key={passkey.id}>
            <Td className="font-medium">{passkey.name}</Td>
            <Td>
              <Time value={passkey.createdAt} />
            </Td>
            <Td>
              <LastUsed passkey={passkey} />
            </Td>
            <Td className="text-right">
              <RemoveButton passkey={passkey} {...actions} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
