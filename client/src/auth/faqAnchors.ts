/** Anchors of the FAQ page that other screens link to. */
export const FAQ_RECEIVING_EMAIL = 'receiving-email';
