/**
 * The step a path stands for, sent with `activity` (the clinic's staff see it in their presence
 * list): a booking step's id (`/b/family` -> `family`, `/b/` -> `clinic`), else the first part
 * of the path (`/contact` -> `contact`), `login` for `/`. At most 40 characters (the server's
 * limit).
 */
export function stepForPath(pathname: string): string {
  const parts = pathname.split('/').filter((part) => part !== '');
  const step = parts[0] === 'b' ? (parts[1] ?? 'clinic') : (parts[0] ?? 'login');
  return step.slice(0, 40);
}
