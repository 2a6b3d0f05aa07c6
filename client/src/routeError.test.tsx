import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from './test/renderApp';

// A screen that fails while rendering, to reach the route tree's error boundary.
vi.mock('./routes/Privacy', () => ({
  default: () => {
    throw new Error('render failure');
  },
}));

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
});

describe('route error boundary', () => {
  it('shows the system error page and keeps the header and footer', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    view = renderApp('/privacy');
    await screen.findByRole('heading', { level: 1, name: 'System error' });
    expect(screen.getByRole('alert').textContent).toBe('An unexpected error occurred. Our team is investigating.');
    expect(within(screen.getByRole('banner')).getByRole('group', { name: 'Language' })).toBeTruthy();
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Contact us' })).toBeTruthy();
    expect(consoleError).toHaveBeenCalled();
  });
});
