import { Component, useEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SystemErrorMessage } from './SystemErrorMessage';

/** What the route tree shows for an error: the system error page (the frame stays), the error logged. */
export function RouteError({ error }: { error: unknown }) {
  useEffect(() => {
    console.error('Unhandled error while showing a page', error);
  }, [error]);
  return <SystemErrorMessage />;
}

interface BoundaryProps {
  /** The location's key: a navigation leaves the error page and tries the new page. */
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  resetKey: string;
}

/**
 * React's error boundary (a class: there is no hook for it) for what react-router's data
 * router did with `errorElement`: a screen that throws while rendering, or whose module or
 * translations fail to load, shows RouteError until the next navigation.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, error: undefined, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, error: undefined, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/** The pathless route around every page: errors below it keep the header and footer. */
export function RouteErrorBoundary() {
  const { key } = useLocation();
  return (
    <Boundary resetKey={key}>
      <Outlet />
    </Boundary>
  );
}
