import { clsx } from 'clsx';
import { NavLink } from 'react-router';
import { focusRing } from '../../components/ui/button';
import { navItemsFor } from './nav-items';
import { useSession } from './session-context';

/** The navigation list, the same in the sidebar and in the drawer. */
export function MainNav({
  badges,
  onNavigate,
}: {
  badges: { approvals: number };
  onNavigate?: () => void;
}) {
  const { session } = useSession();
  return (
    <nav aria-label="Main" className="flex-1 overflow-y-auto px-3">
      <ul className="space-y-0.5">
        {navItemsFor(session.operator.role).map((item) => {
          const count = item.badge ? badges[item.badge] : 0;
          return (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  clsx(
                    // 44 px rows below lg: the drawer is used with a thumb.
                    'flex min-h-11 items-center rounded-md px-3 py-2 text-sm font-medium lg:min-h-0',
                    focusRing,
                    isActive
                      ? 'bg-slate-700 text-white'
                      : 'text-slate-200 hover:bg-slate-800 hover:text-white',
                  )
                }
              >
                {item.label}
                {count > 0 ? (
                  <span className="ml-2 rounded-full bg-amber-300 px-1.5 py-0.5 text-xs font-bold text-amber-950">
                    {count}
                    <span className="sr-only"> waiting for your approval</span>
                  </span>
                ) : null}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
