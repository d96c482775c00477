// The REST API: every request carries the session's token; a 401 lets the session recover
// (refresh, or a new guest) and the request is sent once more. A refusal is an ApiProblem
// whose `words` say, in players' words, what happened and what to do.
import * as session from "./session.js";
import { heard } from "./clock.js";
import { lost, reached } from "./offline.js";
import { refusal } from "./words.js";

let base = "";

export function configure(config) {
  base = config.api_url || "";
}

export function url(path) {
  return base + path;
}

export class ApiProblem extends Error {
  constructor(status, code) {
    super(`${status} ${code || ""}`.trim());
    this.status = status;
    this.code = code || "";
    this.words = status === 0 ? "No connection to the server: check your network and try again." : refusal(status, code);
  }
}

/** {status, data, etag}; throws ApiProblem for 4xx/5xx. Options: body, etag (If-None-Match),
 * anonymous (send no token), headers. */
export async function request(method, path, options = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const token = options.anonymous ? null : await session.token();
    const headers = { accept: "application/json", ...(options.headers || {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.etag) headers["if-none-match"] = options.etag;
    let answer;
    const sent = Date.now();
    try {
      answer = await fetch(base + path, {
        method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch {
      lost(); // offline.js: the page says so, and the game screen keeps Commit off
      throw new ApiProblem(0, "network");
    }
    reached();
    heard(answer.headers.get("date"), sent, Date.now()); // the server's clock (clock.js)
    if (answer.status === 401 && token && attempt === 0 && await session.recover(token)) continue;
    if (answer.status === 304) return { status: 304, data: null, etag: options.etag };
    const type = answer.headers.get("content-type") || "";
    const data = type.includes("json") ? await answer.json().catch(() => null) : null;
    if (!answer.ok) {
      const code = data && (data.code || (data.error && data.error.code));
      throw new ApiProblem(answer.status, code);
    }
    return { status: answer.status, data, etag: answer.headers.get("etag") };
  }
}

export async function api(method, path, body) {
  return (await request(method, path, body === undefined ? {} : { body })).data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
export const put = (path, body = {}) => api("PUT", path, body);
export const del = (path) => api("DELETE", path);

// Public profiles, looked up once per page load (names, avatars, ratings of seats and creators).
const profiles = new Map();
const USERNAME = /^[A-Za-z0-9_-]{3,20}$/;

/** A player's public profile by username, or null (bots, guests, names that are not usernames). */
export function profile(name) {
  if (!name || !USERNAME.test(name)) return Promise.resolve(null);
  const key = name.toLowerCase();
  if (!profiles.has(key)) {
    profiles.set(key, request("GET", `/v1/players/${encodeURIComponent(name)}`, { anonymous: true })
      .then((r) => r.data, () => null));
  }
  return profiles.get(key);
}

export function forgetProfile(name) {
  if (name) profiles.delete(name.toLowerCase());
}
