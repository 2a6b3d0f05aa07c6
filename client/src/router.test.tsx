import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoutesFromElements, type RouteObject } from 'react-router';
import { nextPathAfterSignIn } from './auth/RequireAuth';
import { clientRoute, clientRoutes, serviceAliases } from './contract';
import { appRoutes, serviceAliasSearch } from './router';
import { fakeServer } from './test/fakeServer';
import { alice, renderApp } from './test/renderApp';
import { useAppStore } from './store';

let view: ReturnType<typeof renderApp> | undefined;
function open(...args: Parameters<typeof renderApp>) {
  view = renderApp(...args);
  return view;
}
beforeEach(() => {
  fakeServer(); // screens that read from the server get a 404 instead of reaching the network
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const location = () => {
  if (!view) throw new Error('nothing rendered');
  const { pathname, search } = view.router.state.location;
  return `${pathname}${search}`;
};

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

describe('entry redirects', () => {
  it.each(['prenatal', 'pgt', 'cancer'])('/%s lands on the login screen with serviceId', async (alias) => {
    open(`/${alias}`);
    await heading('Sign in');
    expect(location()).toBe(`/?serviceId=${alias}`);
  });

  it('keeps the other query parameters (decoded and encoded again, repeated ones too)', () => {
    expect(serviceAliasSearch('cancer', '?a=1&a=2&serviceId=x&q=%E3%81%82+b')).toBe('?serviceId=cancer&a=1&a=2&q=%E3%81%82+b');
    expect(serviceAliasSearch('pgt', '')).toBe('?serviceId=pgt');
  });

  it('keeps the other query parameters', async () => {
    open('/pgt?locale=ja&clinicId=demo-clinic&serviceId=ignored');
    await heading('ログイン');
    expect(location()).toBe('/?serviceId=pgt&locale=ja&clinicId=demo-clinic');
  });
});

describe('booking guard', () => {
  it('sends a signed-out visitor of /b/review to the login screen, remembering the path', async () => {
    open('/b/review?step=2');
    await heading('Sign in');
    expect(view?.router.state.location.pathname).toBe('/');
    const search = new URLSearchParams(view?.router.state.location.search);
    expect(search.get('next')).toBe('/b/review?step=2');
    expect(nextPathAfterSignIn(search)).toBe('/b/review?step=2');
    expect(screen.queryByRole('heading', { name: 'Review and submit' })).toBeNull();
  });

  it('shows the booking step to a signed-in person', async () => {
    open('/b/review', { user: alice });
    await heading('Review and submit');
    expect(location()).toBe('/b/review');
  });

  it('shows the provider-code screen at /b/ as at /b/clinic, keeping ?id', async () => {
    open('/b/?id=AB12', { user: alice });
    await heading('Health care provider code');
    expect(location()).toBe('/b/?id=AB12');
  });

  it('sends the person to the login screen when they sign out on a booking step', async () => {
    open('/b/appointment', { user: alice });
    await heading('Choose a date and time');
    act(() => {
      useAppStore.getState().reset();
      useAppStore.getState().setAuthUser(null);
    });
    await heading('Sign in');
    expect(new URLSearchParams(view?.router.state.location.search).get('next')).toBe('/b/appointment');
  });

  it('follows ?next= only to paths of this app', () => {
    expect(nextPathAfterSignIn(new URLSearchParams('next=//evil.example/b'))).toBe('/b/clinic');
    expect(nextPathAfterSignIn(new URLSearchParams('next=https://evil.example'))).toBe('/b/clinic');
    expect(nextPathAfterSignIn(new URLSearchParams(''))).toBe('/b/clinic');
  });
});

describe('every route of docs/product.md', () => {
  const signedIn: [string, string][] = [
    ['/b/clinic', 'Health care provider code'],
    ['/b/patient', 'Patient information'],
    ['/b/contact', 'Contact information'],
    ['/b/profile', 'Profile'],
    ['/b/family', 'Family history'],
    ['/b/fertility-treatment', 'Fertility treatment'],
    ['/b/pregnancy-current', 'Current pregnancy'],
    ['/b/pregnancy-history', 'Pregnancy history'],
    ['/b/prenatal-testing', 'Prenatal testing'],
    ['/b/expectations', 'Your questions and expectations'],
    ['/b/appointment', 'Choose a date and time'],
    ['/b/review', 'Review and submit'],
    ['/b/checkout', 'Checkout'],
    ['/b/payment-confirmed?sessionId=cs_1', 'Confirming your payment'],
    ['/b/confirmed', 'Appointment confirmed'],
    ['/b/booking', 'My booking'],
    ['/b/pgt-reports', 'Analysis reports'],
  ];
  it.each(signedIn)('%s shows "%s" when signed in', async (path, title) => {
    open(path, { user: alice });
    await heading(title);
    expect(location()).toBe(path);
  });

  const publicRoutes: [string, string][] = [
    ['/?locale=en&clinicId=demo-clinic&serviceId=pgt-post', 'Sign in'],
    ['/c/demo-clinic', 'Sign in to book with your clinic'],
    ['/login-confirmation?token=abc', 'Confirm your sign-in'],
    ['/contact?id=a1&name=Hanako&email=h%40example.com', 'Contact us'],
    ['/contact-confirmation', 'Message sent'],
    ['/downloads/demo-clinic/doc-1/ja', 'Downloads'],
    ['/faq', 'Frequently asked questions'],
    ['/error', 'System error'],
    ['/privacy', 'Privacy policy'],
    ['/terms', 'Terms of service'],
  ];
  it.each(publicRoutes)('%s shows "%s" when signed out', async (path, title) => {
    open(path);
    await heading(title);
    expect(location()).toBe(path);
  });
});

describe('pages', () => {
  it('shows "Page not found" for an unknown path', async () => {
    open('/no/such/page');
    await heading('Page not found');
    expect(location()).toBe('/no/such/page');
    expect(screen.getByRole('link', { name: 'Back to the start page' }).getAttribute('href')).toBe('/');
  });

  it('shows the not-found page in Japanese too', async () => {
    open('/b/unknown-step', { user: alice, locale: 'ja' });
    await heading('ページが見つかりません');
  });

  it('says the team is investigating on the system error page', async () => {
    open('/error');
    await heading('System error');
    expect(screen.getByRole('alert').textContent).toBe('An unexpected error occurred. Our team is investigating.');
  });

  it('has header, main and footer landmarks, and footer links to contact, privacy and terms', async () => {
    open('/');
    await heading('Sign in');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
    expect(footer.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/privacy');
    expect(footer.getByRole('link', { name: 'Terms of service' }).getAttribute('href')).toBe('/terms');
  });

  it('scrolls to the top on every navigation', async () => {
    const user = userEvent.setup();
    open('/');
    await heading('Sign in');
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Terms of service' }));
    await heading('Terms of service');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('switches the language from the header, including <html lang> and the title', async () => {
    const user = userEvent.setup();
    open('/terms');
    await heading('Terms of service');
    expect(document.documentElement.lang).toBe('en');
    const switcher = within(screen.getByRole('group', { name: 'Language' }));
    await user.click(switcher.getByRole('button', { name: '日本語' }));
    await heading('利用規約');
    expect(document.documentElement.lang).toBe('ja');
    expect(document.title).toBe('利用規約 | 遺伝カウンセリング予約');
    expect(within(screen.getByRole('group', { name: '言語' })).getByRole('button', { name: '日本語' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('takes the locale query parameter on the login screen', async () => {
    open('/?locale=ja', { locale: 'en' });
    await heading('ログイン');
    await waitFor(() => {
      expect(document.documentElement.lang).toBe('ja');
    });
  });

  it('offers sign-out only to a signed-in person', async () => {
    open('/terms');
    await heading('Terms of service');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    view?.unmount();
    open('/b/clinic', { user: alice });
    await heading('Health care provider code');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });
});

describe('the route table and contract.json clientRoutes', () => {
  /** Every path a screen is rendered at (index routes at their parent's), aliases excluded. */
  function screenPaths(list: readonly RouteObject[], parent: string): string[] {
    return list.flatMap((route) => {
      const own = route.path === undefined ? parent : route.path.startsWith('/') ? route.path : `${parent.replace(/\/$/, '')}/${route.path}`;
      const here = route.element !== undefined && !serviceAliases.some((alias) => own === `/${alias}`) ? [own] : [];
      return [...here, ...screenPaths(route.children ?? [], own)];
    });
  }

  it('renders a screen at every listed path and at no other (but the not-found page)', () => {
    const paths = screenPaths(createRoutesFromElements(appRoutes), '/').filter((path) => path !== '/*');
    expect(new Set(paths)).toEqual(new Set(clientRoutes));
  });

  it('refuses a path the contract does not list', () => {
    expect(() => clientRoute('/no-such-screen')).toThrow(/clientRoutes/);
  });
});
