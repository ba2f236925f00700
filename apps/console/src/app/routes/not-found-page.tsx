import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="There is nothing at this address.">
        <Link to="/" className="font-medium text-indigo-700 underline">
          Go to the overview
        </Link>
      </EmptyState>
    </>
  );
}
