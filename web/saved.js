// The last state of a player's games, kept in this browser so that the app shows them without
// the network (the service worker keeps only the app's own files, never an API answer). What is
// kept is exactly what the server showed this player: their running games and the game screens
// they opened, under their player id, so another player signing in here never sees them, and
// signing out forgets them (session.js).
const PREFIX = "mineduel.saved.";
const MAX_GAMES = 20;

function key(playerId) {
  return `${PREFIX}${playerId}`;
}

function read(playerId) {
  try {
    const kept = JSON.parse(localStorage.getItem(key(playerId)));
    return kept && typeof kept === "object" ? { list: kept.list || null, games: kept.games || {} } : { list: null, games: {} };
  } catch {
    return { list: null, games: {} };
  }
}

function write(playerId, kept) {
  try {
    localStorage.setItem(key(playerId), JSON.stringify(kept));
  } catch {
    // Storage full or refused: the app still works online, it just cannot show this offline.
  }
}

/** Keep the player's list of running games (GET /v1/me/games?status=active). */
export function keepList(playerId, games) {
  if (!playerId) return;
  const kept = read(playerId);
  kept.list = { games, at: Date.now() };
  write(playerId, kept);
}

/** The kept list, {games, at} (at: when it was read, device time), or null. */
export function list(playerId) {
  return playerId ? read(playerId).list : null;
}

/** Keep a game screen's state: the Game and its moves, as shown. The newest 20 are kept. */
export function keepGame(playerId, game, moves) {
  if (!playerId || !game || !game.game_id) return;
  const kept = read(playerId);
  kept.games[game.game_id] = { game, moves, at: Date.now() };
  const newest = Object.entries(kept.games).sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_GAMES);
  kept.games = Object.fromEntries(newest);
  write(playerId, kept);
}

/** The kept state of a game, {game, moves, at}, or null. */
export function game(playerId, gameId) {
  return playerId ? read(playerId).games[gameId] || null : null;
}

/** Forget everything kept for a player (signing out: a browser that changes hands). */
export function forget(playerId) {
  if (playerId) localStorage.removeItem(key(playerId));
}
