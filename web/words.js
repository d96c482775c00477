// What people read: the words for the API's codes, times per move, levels and results. The API
// speaks in codes and paths; nothing of that reaches the page (every refusal becomes one of
// these sentences, saying what to do).

export const TIMES_PER_MOVE = [
  [60, "1 minute"],
  [300, "5 minutes"],
  [3600, "1 hour"],
  [86400, "1 day"],
  [259200, "3 days"],
  [604800, "7 days"],
];

export const BOT_LEVELS = [
  ["easy", "Easy"],
  ["medium", "Medium"],
  ["hard", "Hard"],
];

export function timePerMove(seconds) {
  const known = TIMES_PER_MOVE.find(([s]) => s === seconds);
  if (known) return `${known[1]} a move`;
  if (!seconds) return "";
  if (seconds % 86400 === 0) return `${seconds / 86400} days a move`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hours a move`;
  if (seconds % 60 === 0) return `${seconds / 60} minutes a move`;
  return `${seconds} seconds a move`;
}

export const PASSWORD_RULE = "At least 12 characters, with upper-case and lower-case letters and a digit.";
export const USERNAME_RULE = "3 to 20 letters, digits, _ or -.";

// The API's error codes in players' words. Where a code is missing, the status decides.
const CODES = {
  "not-your-turn": "It is not your turn: wait for the other player's move.",
  "seat-out": "You are out of this game, so you cannot move any more.",
  "not-your-seat": "You are watching this game: only its players can move.",
  "cell-not-covered": "That square is already open: choose a covered one.",
  "off-board": "That square is not on the board.",
  "bad-action": "This game does not have that action: choose another.",
  "bomb-used": "You have used your bomb: tap a square instead.",
  "bomb-not-behind": "In this game the bomb is only for the player who is behind.",
  "game-not-active": "This game is over or has not started yet.",
  "deadline-not-passed": "They still have time by the server's clock: wait a little longer.",
  "turn-timed-out": "That turn ran out of time already: the game has moved on.",
  "move-conflict": "The game moved on before your move arrived: look at the board and commit again.",
  "game-conflict": "Someone else changed the game at the same moment: try again.",
  "deadline-passed": "The time for this move ran out.",
  "illegal-move": "That move is not allowed here.",
  "guests-play-bots-only": "Guests play the bot: sign in (or sign up) to play people.",
  "accounts-only": "Sign in to do this: guests play the bot only.",
  "unrated-seat": "Rated games are between signed-in players only: untick Rated to play a bot or a guest.",
  "variant-not-rated": "Only mine duel games are rated: untick Rated for this variant.",
  "bad-invite": "Check the username: invite other players by their username, each once.",
  "player-not-found": "Nobody has that username: check the spelling.",
  "too-many-invites": "Invite at most one player for each free seat.",
  "too-many-bots": "Leave a seat for yourself: fewer bots, or more seats.",
  "no-open-seat": "This game has no free seat any more: pick another one in the lobby.",
  "join-conflict": "Someone took that seat at the same moment: pick another game.",
  "not-invited": "That seat is kept for someone else.",
  "game-not-waiting": "This game has already started (or ended), so it can no longer be cancelled.",
  "game-not-finished": "The game is not over yet.",
  "game-over": "The game is over.",
  "username-taken": "Someone already has that username: try another.",
  "username-invalid": `A username is ${USERNAME_RULE}`,
  "username-reserved": "That username is kept for the game itself: choose another.",
  "claim-conflict": "Those guest games were already moved to an account.",
  "guest-token-invalid": "The guest games could not be found any more.",
  "not-a-guest-token": "The guest games could not be found any more.",
  "daily-already-played": "You have played today's duel already: come back tomorrow.",
  "daily-not-ready": "Today's duel is not open yet: its field is committed to before anyone plays. Try again in a few minutes.",
  "day-not-found": "There was no daily duel that day.",
  "avatar-too-large": "That picture is too big: use one under 256 KB.",
  "avatar-unsupported-type": "Use a PNG, JPEG or WebP picture.",
  "avatar-not-an-image": "That file is not a picture we can read: use a PNG, JPEG or WebP.",
  "avatar-bad-dimensions": "Use a picture between 16 and 1,024 pixels on each side.",
  "avatar-upload-not-found": "The picture did not arrive: choose it and upload again.",
  "avatar-upload-replaced": "Another upload replaced this one: upload again.",
  "leaderboard-not-found": "This variant has no ratings, so no leaderboard.",
  "game-not-found": "There is no such game (or it is private): check the link.",
  "too-many-requests": "Too many requests at once: wait a moment and try again.",
  "spectators-off": "The players turned spectators off for this game.",
  "too-many-subscriptions": "You have notifications on in 10 browsers and devices: turn them off in one first.",
  "subscription-conflict": "Other sign-ins were turning notifications on in this browser at the same moment: try again.",
  "push-endpoint-not-allowed": "This browser's push service is not one we send to: try another browser.",
  "push-keys-invalid": "This browser gave keys we cannot use: turn notifications off and on again.",
  "push-kind-unavailable": "This server does not send notifications to that kind of device.",
  "push-key-unavailable": "Notifications cannot be set up right now: try again in a minute.",
  "subscription-not-found": "Notifications were already off here.",
  "seek-open": "You are already looking for an opponent in this variant (in another tab?): stop that search first.",
  "seek-not-open": "That search has ended already.",
  "seek-not-found": "That search is gone: start a new one.",
  "seek-conflict": "Many players were being paired at that moment: try again.",
  "bad-rating-range": "Choose a rating range whose lower end is below its upper end.",
  "fair-play-restricted": "After a fair-play review your account plays unrated games only: untick Rated.",
  "fair-play-private": "Only the player can see their fair-play record.",
};

export const RATING_RANGES = [
  ["", "Any rating"],
  ["100", "Within 100 of mine"],
  ["200", "Within 200 of mine"],
  ["400", "Within 400 of mine"],
];

export const FAIR_PLAY_STATUS = {
  clear: "Clear: nothing to review.",
  review: "Under review: a moderator will look at your recent rated games. Nothing changes for you until they decide.",
  restricted: "Restricted after a review: you play unrated games only and are on no leaderboard.",
};

const STATUS = {
  400: "That request was not understood: reload the page and try again.",
  401: "Your sign-in has ended: sign in again.",
  403: "You are not allowed to do that here.",
  404: "That could not be found: check the link.",
  409: "The game changed meanwhile: look again and retry.",
  413: "That is too large to send.",
  422: "That is not valid: check what you entered.",
  429: "Too many requests at once: wait a moment and try again.",
};

/** Words for an API refusal: by code, else by status; never the API's own text. */
export function refusal(status, code) {
  if (code && CODES[code]) return CODES[code];
  if (STATUS[status]) return STATUS[status];
  if (status >= 500) return "The server had a problem: try again in a moment.";
  return "That did not work: try again.";
}

// Cognito's exceptions (sign-up, sign-in, codes) in players' words.
const COGNITO = {
  UsernameExistsException: "An account with this email exists already: sign in instead.",
  InvalidPasswordException: `That password is too weak. ${PASSWORD_RULE}`,
  InvalidParameterException: "Check the email and the password.",
  NotAuthorizedException: "Wrong email or password.",
  UserNotFoundException: "Wrong email or password.",
  UserNotConfirmedException: "Confirm your email first: enter the code we sent you.",
  CodeMismatchException: "That code is wrong: check it and try again.",
  ExpiredCodeException: "That code has expired: ask for a new one.",
  EnableSoftwareTokenMFAException: "That code is wrong: enter the code your app shows now.",
  TooManyRequestsException: "Too many attempts: wait a minute and try again.",
  LimitExceededException: "Too many attempts: wait a while and try again.",
  TooManyFailedAttemptsException: "Too many attempts: wait a while and try again.",
};

export function cognitoWords(type, message = "") {
  if (type === "NotAuthorizedException" && /mfa|code|session/i.test(message)) {
    return "That code is wrong or too old: enter the code your app shows now.";
  }
  if (type === "InvalidParameterException" && /password/i.test(message)) return `That password does not fit the rule. ${PASSWORD_RULE}`;
  return COGNITO[type] || "Signing in did not work: check your connection and try again.";
}

/** "You won", "You lost to Ann", "Draw", "Ann won" (a spectator), "You came 2nd". */
export function resultWords(game, mySeat, nameOf) {
  const result = game.result;
  if (!result) return game.status === "cancelled" ? "Cancelled" : "";
  const places = result.places || [];
  const firsts = places.map((p, i) => (p === 1 ? i : -1)).filter((i) => i >= 0);
  if (firsts.length > 1 && firsts.length === places.length) return "Draw";
  const winner = result.winner;
  if (mySeat === null || mySeat === undefined) {
    if (winner === null || winner === undefined) return `Draw between ${firsts.map(nameOf).join(" and ")}`;
    return `${nameOf(winner)} won`;
  }
  if (winner === mySeat) return "You won";
  if (winner === null || winner === undefined) {
    return firsts.includes(mySeat) ? `Draw: you share first place with ${firsts.filter((s) => s !== mySeat).map(nameOf).join(" and ")}` : `You lost: ${firsts.map(nameOf).join(" and ")} share first place`;
  }
  if (places.length > 2 && places[mySeat] !== places.length) {
    return `You lost to ${nameOf(winner)}: you came ${ordinal(places[mySeat])}`;
  }
  return `You lost to ${nameOf(winner)}`;
}

export function reasonWords(reason, game, nameOf) {
  switch (reason) {
    case "reach": return "the winner has more mines than anyone can still catch up with";
    case "field-done": return "every mine has been found";
    case "resign": {
      const out = game.seats.filter((s) => s.out).map((s) => nameOf(s.seat));
      return out.length ? `${out.join(" and ")} resigned` : "a player resigned";
    }
    case "timeout": return "a player ran out of time";
    default: return "";
  }
}

export function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix}`;
}
