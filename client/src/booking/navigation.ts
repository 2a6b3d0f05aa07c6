/**
 * Leaving the app for the payment provider's hosted page. One object, so that tests can
 * replace the browser's navigation (jsdom cannot leave the page).
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
