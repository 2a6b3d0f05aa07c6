/**
 * The combo box's code (react-aria-components, about 240 kB), loaded apart from the other
 * steps'. A step that may show one asks for it as soon as it opens, so that adding an entry
 * later needs no download: the connection may be gone by then, and a chunk that cannot be
 * loaded reloads the page (main.tsx), which would lose what is on the screen.
 */
export const loadComboboxField = () => import('./ComboboxField');
