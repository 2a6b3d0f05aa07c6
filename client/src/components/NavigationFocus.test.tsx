import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../test/renderApp';
import { focusNeedsMoving, navigationFocusTarget } from './NavigationFocus';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  document.body.innerHTML = '';
});

describe('focus after a navigation', () => {
  it('leaves the first page of a load alone', async () => {
    view = renderApp('/terms');
    await screen.findByRole('heading', { level: 1, name: 'Terms of service' });
    expect(document.activeElement).toBe(document.body);
  });

  it('moves to the new page title when the control that had focus went away with the old page', async () => {
    const user = userEvent.setup();
    view = renderApp('/no/such/page');
    const back = await screen.findByRole('link', { name: 'Back to the start page' });
    back.focus();
    await user.keyboard('{Enter}');
    const title = await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await waitFor(() => {
      expect(document.activeElement).toBe(title);
    });
    // Tab goes on into the new page, not from the top of the document.
    await user.tab();
    expect(within(screen.getByRole('main')).queryAllByRole('textbox')).toContain(document.activeElement);
  });

  it('moves from a footer link that was followed to the new page title', async () => {
    const user = userEvent.setup();
    view = renderApp('/privacy');
    await screen.findByRole('heading', { level: 1, name: 'Privacy policy' });
    const footer = within(screen.getByRole('contentinfo'));
    footer.getByRole('link', { name: 'Terms of service' }).focus();
    await user.keyboard('{Enter}');
    const title = await screen.findByRole('heading', { level: 1, name: 'Terms of service' });
    await waitFor(() => {
      expect(document.activeElement).toBe(title);
    });
  });
});

describe('focusNeedsMoving', () => {
  function page() {
    document.body.innerHTML = `
      <header><a href="/">Home</a></header>
      <main id="main" tabindex="-1"><h1 tabindex="-1">Title</h1><input aria-label="field"></main>
      <div role="dialog" aria-modal="true"><button>OK</button></div>`;
    const main = document.getElementById('main');
    if (!main) throw new Error('no main');
    return { main, q: (selector: string) => document.querySelector(selector) };
  }

  it('is needed when focus fell back to the body or stayed in the frame', () => {
    const { main, q } = page();
    expect(focusNeedsMoving(null, main)).toBe(true);
    expect(focusNeedsMoving(document.body, main)).toBe(true);
    expect(focusNeedsMoving(q('header a'), main)).toBe(true);
  });

  it('is not needed when the new page or a dialog took focus', () => {
    const { main, q } = page();
    expect(focusNeedsMoving(q('main input'), main)).toBe(false);
    expect(focusNeedsMoving(q('[role=dialog] button'), main)).toBe(false);
  });

  it('targets the page title, or main when the page has none to focus', () => {
    const { main, q } = page();
    expect(navigationFocusTarget(main)).toBe(q('h1'));
    q('h1')?.removeAttribute('tabindex');
    expect(navigationFocusTarget(main)).toBe(main);
  });
});
