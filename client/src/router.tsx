/**
 * The one route table (docs/product.md "Screens and routes") with its guards and redirects, in react-router's
 * declarative mode (`<Routes>` of `<Route>`s): the data router (`createBrowserRouter`) would add about 16 KB gzip to the
 * first load for features this app does not need (docs/benchmarks.md "Client first load"). Every screen is a lazily
 * loaded module of client/src/routes/ (or staff/) that brings the translations it reads (components/lazyScreen.tsx);
 * the frame's one `Suspense` shows Loading meanwhile. Paths are absolute and each one is listed in
 * realtime/contract.json "clientRoutes" (`clientRoute` refuses any other), which the server uses to answer 404 for any
 * other path.
 */
import { isValidElement, type ComponentType, type ReactElement } from 'react';
import { createRoutesFromElements, matchRoutes, Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { lazyScreen } from './components/lazyScreen';
import { RouteErrorBoundary } from './components/RouteError';
import { clientRoute, serviceAliases } from './contract';
import { loadNamespaces } from './i18n';
import { clientNamespaces, firstScreenNamespaces, namespaces, type Namespace } from './i18n/namespaces';

type ScreenModule = Promise<{ default: ComponentType }>;

/** Each screen's loader, by the element that renders it (`preloadScreens`). */
const loaders = new WeakMap<ReactElement, () => Promise<unknown>>();

/**
 * A screen: its module's default export, loaded on first use (or by `preloadScreens`) together
 * with the translation namespaces it reads (docs/architecture.md, "The client: how translations
 * load": a screen never renders with missing words), by default a client's (all but staff).
 * Until both are there the frame's `Suspense` shows Loading (or, on a navigation, keeps the
 * page before); when either fails to load, the route error boundary shows the system error
 * page.
 */
function screen(load: () => ScreenModule, ns: readonly Namespace[] = clientNamespaces): ReactElement {
  const { element, load: loadWithWords } = lazyScreen(async () => {
    const [module] = await Promise.all([load(), loadNamespaces(ns)]);
    return module.default;
  });
  loaders.set(element, loadWithWords);
  return element;
}

/** `/pgt?locale=en` -> `?serviceId=pgt&locale=en`: serviceId set, other query params kept. */
export function serviceAliasSearch(alias: string, search: string): string {
  const next = new URLSearchParams({ serviceId: alias });
  for (const [key, value] of new URLSearchParams(search)) {
    if (key !== 'serviceId') next.append(key, value);
  }
  return `?${next.toString()}`;
}

/** An entry alias (/prenatal, /pgt, /cancer): replaced by the login screen with its serviceId. */
function ServiceAlias({ alias }: { alias: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/', search: serviceAliasSearch(alias, search) }} replace />;
}

/** The booking guard, lazy: it knows the questionnaire's steps (the intake definition). */
const requireAuth = screen(() => import('./auth/RequireAuth').then(({ RequireAuth }) => ({ default: RequireAuth })));

/** The staff guard, lazy, with every namespace (the staff screens show clients' words too). */
const requireStaff = screen(
  () => import('./staff/RequireStaff').then(({ RequireStaff }) => ({ default: RequireStaff })),
  namespaces,
);

const bookingClinic = screen(() => import('./routes/Clinic'));

/** The route tree, exported for the tests that check it against contract.json and the intake definition. */
export const appRoutes = (
  <Route path="/" element={<Layout />}>
    {/* Errors below keep the header and footer and show the system error page. */}
    <Route element={<RouteErrorBoundary />}>
      {/* Entry redirects: /prenatal, /pgt, /cancer (contract.json serviceAliases). */}
      {serviceAliases.map((alias) => (
        <Route key={alias} path={alias} element={<ServiceAlias alias={alias} />} />
      ))}
      <Route index element={screen(() => import('./routes/Login'), firstScreenNamespaces)} />
      <Route path={clientRoute('/c/:clinicId')} element={screen(() => import('./routes/ClinicLogin'), firstScreenNamespaces)} />
      <Route path={clientRoute('/login-confirmation')} element={screen(() => import('./routes/LoginConfirmation'))} />
      {/* Signed-in booking steps under /b/ (guarded by RequireAuth). */}
      <Route path={clientRoute('/b')} element={requireAuth}>
        {/* /b/ is an alias of /b/clinic */}
        <Route index element={bookingClinic} />
        <Route path={clientRoute('/b/clinic')} element={bookingClinic} />
        <Route path={clientRoute('/b/patient')} element={screen(() => import('./routes/Patient'))} />
        <Route path={clientRoute('/b/contact')} element={screen(() => import('./routes/ContactInfo'))} />
        <Route path={clientRoute('/b/profile')} element={screen(() => import('./routes/Profile'))} />
        <Route path={clientRoute('/b/family')} element={screen(() => import('./routes/Family'))} />
        <Route path={clientRoute('/b/fertility-treatment')} element={screen(() => import('./routes/FertilityTreatment'))} />
        <Route path={clientRoute('/b/pregnancy-current')} element={screen(() => import('./routes/PregnancyCurrent'))} />
        <Route path={clientRoute('/b/pregnancy-history')} element={screen(() => import('./routes/PregnancyHistory'))} />
        <Route path={clientRoute('/b/prenatal-testing')} element={screen(() => import('./routes/PrenatalTesting'))} />
        <Route path={clientRoute('/b/expectations')} element={screen(() => import('./routes/Expectations'))} />
        <Route path={clientRoute('/b/appointment')} element={screen(() => import('./routes/Appointment'))} />
        <Route path={clientRoute('/b/review')} element={screen(() => import('./routes/Review'))} />
        <Route path={clientRoute('/b/checkout')} element={screen(() => import('./routes/Checkout'))} />
        <Route path={clientRoute('/b/payment-confirmed')} element={screen(() => import('./routes/PaymentConfirmed'))} />
        <Route path={clientRoute('/b/confirmed')} element={screen(() => import('./routes/Confirmed'))} />
        <Route path={clientRoute('/b/pgt-reports')} element={screen(() => import('./routes/PgtReports'))} />
        {/* After the booking: My booking (an ended appointment there offers to book again) and rescheduling. */}
        <Route path={clientRoute('/b/booking')} element={screen(() => import('./routes/MyBooking'))} />
        <Route path={clientRoute('/b/reschedule')} element={screen(() => import('./routes/Reschedule'))} />
      </Route>
      {/* The clinic's side under /staff (guarded by RequireStaff: staff only, second factor first). */}
      <Route path={clientRoute('/staff')} element={requireStaff}>
        <Route index element={screen(() => import('./staff/BoardScreen'))} />
        <Route path={clientRoute('/staff/second-factor')} element={screen(() => import('./staff/SecondFactorScreen'))} />
        <Route path={clientRoute('/staff/appointments/:appointmentId')} element={screen(() => import('./staff/AppointmentScreen'))} />
        <Route path={clientRoute('/staff/audit')} element={screen(() => import('./staff/AuditScreen'))} />
        <Route path={clientRoute('/staff/team')} element={screen(() => import('./staff/TeamScreen'))} />
        <Route path={clientRoute('/staff/documents')} element={screen(() => import('./staff/DocumentsScreen'))} />
        <Route path={clientRoute('/staff/services')} element={screen(() => import('./staff/ServicesScreen'))} />
        <Route path={clientRoute('/staff/codes')} element={screen(() => import('./staff/CodesScreen'))} />
        <Route path={clientRoute('/staff/identity')} element={screen(() => import('./staff/IdentityScreen'))} />
        <Route path={clientRoute('/staff/schedule')} element={screen(() => import('./staff/ScheduleScreen'))} />
      </Route>
      <Route path={clientRoute('/contact')} element={screen(() => import('./routes/Contact'))} />
      <Route path={clientRoute('/contact-confirmation')} element={screen(() => import('./routes/ContactConfirmation'))} />
      <Route path={clientRoute('/downloads/:clinicId/:docId/:locale')} element={screen(() => import('./routes/Downloads'))} />
      <Route path={clientRoute('/faq')} element={screen(() => import('./routes/Faq'))} />
      <Route path={clientRoute('/error')} element={screen(() => import('./routes/SystemError'))} />
      <Route path={clientRoute('/privacy')} element={screen(() => import('./routes/Privacy'))} />
      <Route path={clientRoute('/terms')} element={screen(() => import('./routes/Terms'))} />
      <Route path="*" element={screen(() => import('./routes/NotFound'))} />
    </Route>
  </Route>
);

/**
 * Starts loading, all at once, the screens that `pathname` renders (a guard and the screen under
 * it) with their words, while the session is read (main.tsx, once the i18n instance exists).
 * Rendering alone would start each one only when the one above it has rendered. Loading twice
 * costs nothing: the browser and i18next each load a module or a namespace once.
 */
export async function preloadScreens(pathname: string): Promise<void> {
  const loading: Promise<unknown>[] = [];
  for (const { route } of matchRoutes(createRoutesFromElements(appRoutes), pathname) ?? []) {
    const load = isValidElement(route.element) ? loaders.get(route.element) : undefined;
    if (load) loading.push(load());
  }
  // A failure shows when the screen renders (the route error boundary).
  await Promise.allSettled(loading);
}

/** Every page of the app, under a `BrowserRouter` (main.tsx) or a `MemoryRouter` (tests). */
export function AppRoutes() {
  return <Routes>{appRoutes}</Routes>;
}
