// The host's list of the games on this server ("Your games", issue 35):
// filled in by showGames once the page knows it may host.

/**
 * Shows the games of this server in the section #games (not yet).
 * @param {import('./api.js').Api} api
 * @param {HTMLElement} section
 */
export async function showGames(api, section) { // eslint-disable-line no-unused-vars
}
