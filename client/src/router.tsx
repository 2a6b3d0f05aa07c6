/**
 * The one route table (docs/product.md "Screens and routes") with its guards and redirects. Every screen is a lazily
 * loaded module of client/src/routes/. Paths are absolute and each one is listed in realtime/contract.json
 * "clientRoutes" (`clientRoute` refuses any other), which the server uses to answer 404 for any other path.
 */
import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/Loading';
import { RouteError } from './components/RouteError';
import { clientRoute, serviceAliases } from './contract';
import { loadNamespaces } from './i18n';
import { clientNamespaces, firstScreenNamespaces, namespaces, type Namespace } from './i18n/namespaces';

type ScreenModule = Promise<{ default: ComponentType }>;

/**
 * A route `lazy` that loads a screen module's default export as the route component, together
 * with the translation namespaces it reads (docs/architecture.md, "Client": how translations
 * load): by default a client's (all but staff); the login screens only the first screen's.
 */
const screen =
  (load: () => ScreenModule, ns: readonly Namespace[] = clientNamespaces) =>
  async () => {
    const [module] = await Promise.all([load(), loadNamespaces(ns)]);
    return { Component: module.default };
  };

/** The booking guard, lazy: it knows the questionnaire's steps (the intake definition). */
const requireAuth = async () => {
  const [{ RequireAuth }] = await Promise.all([import('./auth/RequireAuth'), loadNamespaces(clientNamespaces)]);
  return { Component: RequireAuth };
};

/** The staff guard, lazy, with every namespace (the staff screens show clients' words too). */
const requireStaff = async () => {
  const [{ RequireStaff }] = await Promise.all([import('./staff/RequireStaff'), loadNamespaces(namespaces)]);
  return { Component: RequireStaff };
};

/** `/pgt?locale=en` -> `/?serviceId=pgt&locale=en`: serviceId set, other query params kept. */
export function serviceAliasRedirect(alias: string) {
  return ({ request }: LoaderFunctionArgs) => {
    const search = new URLSearchParams({ serviceId: alias });
    for (const [key, value] of new URL(request.url).searchParams) {
      if (key !== 'serviceId') search.append(key, value);
    }
    return redirect(`/?${search.toString()}`);
  };
}

const bookingClinic = screen(() => import('./routes/Clinic'));

/** Signed-in booking steps under /b/ (guarded by RequireAuth). */
const bookingSteps: RouteObject[] = [
  { index: true, lazy: bookingClinic }, // /b/ is an alias of /b/clinic
  { path: clientRoute('/b/clinic'), lazy: bookingClinic },
  { path: clientRoute('/b/patient'), lazy: screen(() => import('./routes/Patient')) },
  { path: clientRoute('/b/contact'), lazy: screen(() => import('./routes/ContactInfo')) },
  { path: clientRoute('/b/profile'), lazy: screen(() => import('./routes/Profile')) },
  { path: clientRoute('/b/family'), lazy: screen(() => import('./routes/Family')) },
  { path: clientRoute('/b/fertility-treatment'), lazy: screen(() => import('./routes/FertilityTreatment')) },
  { path: clientRoute('/b/pregnancy-current'), lazy: screen(() => import('./routes/PregnancyCurrent')) },
  { path: clientRoute('/b/pregnancy-history'), lazy: screen(() => import('./routes/PregnancyHistory')) },
  { path: clientRoute('/b/prenatal-testing'), lazy: screen(() => import('./routes/PrenatalTesting')) },
  { path: clientRoute('/b/expectations'), lazy: screen(() => import('./routes/Expectations')) },
  { path: clientRoute('/b/appointment'), lazy: screen(() => import('./routes/Appointment')) },
  { path: clientRoute('/b/review'), lazy: screen(() => import('./routes/Review')) },
  { path: clientRoute('/b/checkout'), lazy: screen(() => import('./routes/Checkout')) },
  { path: clientRoute('/b/payment-confirmed'), lazy: screen(() => import('./routes/PaymentConfirmed')) },
  { path: clientRoute('/b/confirmed'), lazy: screen(() => import('./routes/Confirmed')) },
  { path: clientRoute('/b/pgt-reports'), lazy: screen(() => import('./routes/PgtReports')) },
];

/** After the booking: My booking (an ended appointment there offers to book again) and rescheduling. */
const afterBooking: RouteObject[] = [
  { path: clientRoute('/b/booking'), lazy: screen(() => import('./routes/MyBooking')) },
  { path: clientRoute('/b/reschedule'), lazy: screen(() => import('./routes/Reschedule')) },
];

/** The clinic's side under /staff (guarded by RequireStaff: staff only, second factor first). */
const staffScreens: RouteObject[] = [
  { index: true, lazy: screen(() => import('./staff/BoardScreen')) },
  { path: clientRoute('/staff/second-factor'), lazy: screen(() => import('./staff/SecondFactorScreen')) },
  { path: clientRoute('/staff/appointments/:appointmentId'), lazy: screen(() => import('./staff/AppointmentScreen')) },
  { path: clientRoute('/staff/audit'), lazy: screen(() => import('./staff/AuditScreen')) },
  { path: clientRoute('/staff/team'), lazy: screen(() => import('./staff/TeamScreen')) },
  { path: clientRoute('/staff/documents'), lazy: screen(() => import('./staff/DocumentsScreen')) },
  { path: clientRoute('/staff/services'), lazy: screen(() => import('./staff/ServicesScreen')) },
  { path: clientRoute('/staff/codes'), lazy: screen(() => import('./staff/CodesScreen')) },
  { path: clientRoute('/staff/identity'), lazy: screen(() => import('./staff/IdentityScreen')) },
  { path: clientRoute('/staff/schedule'), lazy: screen(() => import('./staff/ScheduleScreen')) },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    hydrateFallbackElement: <Loading />,
    children: [
      {
        // Errors below keep the header and footer and show the system error page.
        errorElement: <RouteError />,
        children: [
          // Entry redirects: /prenatal, /pgt, /cancer (contract.json serviceAliases).
          ...serviceAliases.map((alias): RouteObject => ({
            path: alias,
            loader: serviceAliasRedirect(alias),
            element: null, // never rendered: the loader redirects
          })),
          { index: true, lazy: screen(() => import('./routes/Login'), firstScreenNamespaces) },
          { path: clientRoute('/c/:clinicId'), lazy: screen(() => import('./routes/ClinicLogin'), firstScreenNamespaces) },
          { path: clientRoute('/login-confirmation'), lazy: screen(() => import('./routes/LoginConfirmation')) },
          {
            path: clientRoute('/b'),
            lazy: requireAuth,
            children: [...bookingSteps, ...afterBooking],
          },
          { path: clientRoute('/staff'), lazy: requireStaff, children: staffScreens },
          { path: clientRoute('/contact'), lazy: screen(() => import('./routes/Contact')) },
          { path: clientRoute('/contact-confirmation'), lazy: screen(() => import('./routes/ContactConfirmation')) },
          { path: clientRoute('/downloads/:clinicId/:docId/:locale'), lazy: screen(() => import('./routes/Downloads')) },
          { path: clientRoute('/faq'), lazy: screen(() => import('./routes/Faq')) },
          { path: clientRoute('/error'), lazy: screen(() => import('./routes/SystemError')) },
          { path: clientRoute('/privacy'), lazy: screen(() => import('./routes/Privacy')) },
          { path: clientRoute('/terms'), lazy: screen(() => import('./routes/Terms')) },
          { path: '*', lazy: screen(() => import('./routes/NotFound')) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
