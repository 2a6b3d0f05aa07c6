import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { SystemErrorMessage } from './SystemErrorMessage';

/** Error boundary of the route tree: the system error page, with the header and footer kept. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Unhandled error while showing a page', error);
  }, [error]);
  return <SystemErrorMessage />;
}
