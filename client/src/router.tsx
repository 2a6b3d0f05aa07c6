/**
 * The one route table (docs/product.md "Screens and routes") with its guards and redirects. Every screen is a lazily
 * loaded module of client/src/routes/.
 */
import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/Loading';
import { RequireAuth } from './auth/RequireAuth';
import { RouteError } from './components/RouteError';
import { serviceAliases } from './contract';
import { RequireStaff } from './staff/RequireStaff';

type ScreenModule = Promise<{ default: ComponentType }>;

/** A route `lazy` that loads a screen module's default export as the route component. */
const screen = (load: () => ScreenModule) => async () => ({ Component: (await load()).default });

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
  { path: 'clinic', lazy: bookingClinic },
  { path: 'patient', lazy: screen(() => import('./routes/Patient')) },
  { path: 'contact', lazy: screen(() => import('./routes/ContactInfo')) },
  { path: 'profile', lazy: screen(() => import('./routes/Profile')) },
  { path: 'family', lazy: screen(() => import('./routes/Family')) },
  { path: 'fertility-treatment', lazy: screen(() => import('./routes/FertilityTreatment')) },
  { path: 'pregnancy-current', lazy: screen(() => import('./routes/PregnancyCurrent')) },
  { path: 'pregnancy-history', lazy: screen(() => import('./routes/PregnancyHistory')) },
  { path: 'prenatal-testing', lazy: screen(() => import('./routes/PrenatalTesting')) },
  { path: 'expectations', lazy: screen(() => import('./routes/Expectations')) },
  { path: 'appointment', lazy: screen(() => import('./routes/Appointment')) },
  { path: 'review', lazy: screen(() => import('./routes/Review')) },
  { path: 'checkout', lazy: screen(() => import('./routes/Checkout')) },
  { path: 'payment-confirmed', lazy: screen(() => import('./routes/PaymentConfirmed')) },
  { path: 'confirmed', lazy: screen(() => import('./routes/Confirmed')) },
  { path: 'pgt-reports', lazy: screen(() => import('./routes/PgtReports')) },
];

/** The clinic's side under /staff (guarded by RequireStaff: staff only, second factor first). */
const staffScreens: RouteObject[] = [
  { index: true, lazy: screen(() => import('./staff/BoardScreen')) },
  { path: 'second-factor', lazy: screen(() => import('./staff/SecondFactorScreen')) },
  { path: 'appointments/:appointmentId', lazy: screen(() => import('./staff/AppointmentScreen')) },
  { path: 'audit', lazy: screen(() => import('./staff/AuditScreen')) },
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
          { index: true, lazy: screen(() => import('./routes/Login')) },
          { path: 'c/:clinicId', lazy: screen(() => import('./routes/ClinicLogin')) },
          { path: 'login-confirmation', lazy: screen(() => import('./routes/LoginConfirmation')) },
          { path: 'b', element: <RequireAuth />, children: bookingSteps },
          { path: 'staff', element: <RequireStaff />, children: staffScreens },
          { path: 'contact', lazy: screen(() => import('./routes/Contact')) },
          { path: 'contact-confirmation', lazy: screen(() => import('./routes/ContactConfirmation')) },
          { path: 'downloads/:clinicId/:docId/:locale', lazy: screen(() => import('./routes/Downloads')) },
          { path: 'faq', lazy: screen(() => import('./routes/Faq')) },
          { path: 'error', lazy: screen(() => import('./routes/SystemError')) },
          { path: 'privacy', lazy: screen(() => import('./routes/Privacy')) },
          { path: 'terms', lazy: screen(() => import('./routes/Terms')) },
          { path: '*', lazy: screen(() => import('./routes/NotFound')) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
