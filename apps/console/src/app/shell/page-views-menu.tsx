import type { ComponentProps } from 'react';
import { ViewsMenu } from '../../features/saved-views/components/views-menu';
import { useSession } from './session-context';

/** The saved-views menu of a list page, for the signed-in operator (who may delete what). */
export function PageViewsMenu<K extends string>(
  props: Omit<ComponentProps<typeof ViewsMenu<K>>, 'operator'>,
) {
  const { session } = useSession();
  return (
    <ViewsMenu
      {...props}
      operator={{
        username: session.operator.username,
        isAdmin: session.operator.role === 'admin',
      }}
    />
  );
}
