// Playing a friend at a distance: the page's door to the online matches of
// `buttonup serve` (docs/online.md). As engine.js is for the matches
// against the AI, this is the one place the online pages call the server: every rule,
// move and drawing is the server's answer; the page only shows it.
//
// The player's token (who this browser is) lives in localStorage["buttonup.player"]; a
// browser without one asks the server for one (POST /api/players) the first time it
// acts. Every call that acts for a player sends it as `Authorization: Bearer <token>`.
//
//   token()                         -> the player's token (made once)
//   create({target, host, starter, seed, clock}) -> {id, seat, invite, links, state}
//   join(id, invite, seed)          -> {seat, state} (seed: the host's, agreed, or null)
//   state(id)                       -> State (`you`: this browser's seat, or null)
//   play(id, move, version)         -> State with `played`
//   choose(id, starter, version)    -> State (the tie rule's choice, the chooser's)
//   resign(id, version)             -> State
//   battle(id, n), ply(id, n, k)    -> Battle, Board (as engine.js's)
//   record(id)                      -> the match record (text)
//   mine()                          -> {matches: [...]}, this player's matches
//   watch(id, seat, onState, onLink, key) -> a Watch: the server's events (every
//                                      accepted change's State, and `presence` when who
//                                      is here changes), reconnecting when cut; .close().
//                                      `key` (the seat's State's stream_key) makes it the
//                                      player's own stream; without it, a spectator's.
//
// A refusal rejects with an EngineError (engine.js) carrying the server's sentence and
// its HTTP status (403 a seat that is not yours, 409 out of turn or a stale version).

import { answer, send } from "./engine.js";

export const TOKEN_KEY = "buttonup.player";
const INVITES_KEY = "buttonup.invites";

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null; // storage refused (a private window): a token for this page only
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (error) {
    // not kept: this page still works, a reload will not come back
  }
}

// The invite codes of the matches this browser created (to show their link again).
export function keepInvite(id, invite) {
  const invites = JSON.parse(stored(INVITES_KEY) || "{}");
  invites[id] = invite;
  store(INVITES_KEY, JSON.stringify(invites));
}

export function keptInvite(id) {
  return JSON.parse(stored(INVITES_KEY) || "{}")[id] || null;
}

// A token given in a link (the "My matches" page's #p=...) becomes this browser's.
export function adoptToken(token) {
  if (token) store(TOKEN_KEY, token);
}

export class OnlineEngine {
  constructor(base = "") {
    this.base = base;
    this.issued = stored(TOKEN_KEY);
  }

  async token() {
    if (this.issued) return this.issued;
    const data = await this.request("/api/players", {}, { auth: false });
    this.issued = data.token;
    store(TOKEN_KEY, data.token);
    return data.token;
  }

  async request(path, body, { auth = true, text = false, again = true } = {}) {
    const headers = auth ? { authorization: `Bearer ${await this.token()}` } : {};
    const response = await send(this.base + path, body, headers);
    if (response.status === 401 && auth && again) {
      // A token this server does not know (its database was replaced): a new one.
      this.issued = null;
      try {
        localStorage.removeItem(TOKEN_KEY);
      } catch (error) {
        // nothing kept anyway
      }
      return this.request(path, body, { auth, text, again: false });
    }
    return answer(response, text);
  }

  create(settings) { return this.request("/api/online", settings); }
  // `seed`: the host's, agreed (only a seed both give decides the deals).
  join(id, invite, seed = null) {
    return this.request(`/api/online/${id}/join`, seed ? { invite, seed: Number(seed) } : { invite });
  }
  state(id) { return this.request(`/api/online/${id}`); }
  play(id, move, version) { return this.request(`/api/online/${id}/play`, { move, version }); }
  choose(id, starter, version) { return this.request(`/api/online/${id}/choose`, { starter, version }); }
  resign(id, version) { return this.request(`/api/online/${id}/resign`, { version }); }
  battle(id, number) { return this.request(`/api/online/${id}/battles/${number}`, undefined, { auth: false }); }
  ply(id, number, ply) {
    return this.request(`/api/online/${id}/battles/${number}/plies/${ply}`, undefined, { auth: false });
  }
  record(id) { return this.request(`/api/online/${id}/record`, undefined, { auth: false, text: true }); }
  mine() { return this.request("/api/players/me/matches"); }

  watch(id, seat, onState, onLink = () => {}, key = null) {
    const who = seat && key ? `?seat=${seat}&key=${encodeURIComponent(key)}` : "";
    return new Watch(`${this.base}/api/online/${id}/events${who}`, onState, onLink);
  }
}

// The server's event stream of one match. EventSource reconnects by itself after a cut
// (sending Last-Event-ID); when the browser gives up (the server gone a while), a new
// one is opened after a pause. `onLink(true|false)` says whether the stream is open.
export class Watch {
  constructor(url, onState, onLink) {
    this.url = url;
    this.onState = onState;
    this.onLink = onLink;
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const source = new EventSource(this.url);
    this.source = source;
    source.addEventListener("open", () => this.onLink(true));
    source.addEventListener("state", (event) => this.take(event.data));
    source.addEventListener("presence", (event) => this.take(event.data));
    source.addEventListener("message", (event) => this.take(event.data));
    source.addEventListener("error", () => {
      this.onLink(false);
      if (source.readyState === EventSource.CLOSED && !this.closed) {
        setTimeout(() => this.open(), 1000);
      }
    });
  }

  take(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return; // not a state: nothing to show
    }
    this.onState(data);
  }

  close() {
    this.closed = true;
    if (this.source) this.source.close();
  }
}
