// What every page of the table shares: the live WebSocket to the table (reconnecting),
// actions and their replies, this device's seat (kept in localStorage per game), joining
// with the code, and small DOM helpers. A page calls connectTo(gameIdOf, render) once.
"use strict";

const SEAT_KEY = "tabletop-seat";
const $ = (id) => document.getElementById(id);
const live = { message: null, ws: null, retries: 0, refs: 0, pending: new Map(), gameIdOf: null, render: null };

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Shows a line to this device: an error (the default) or, with ok, good news.
function say(text, ok) {
  $("message").textContent = text;
  $("message").className = ok ? "ok" : "";
}

function savedSeat(gameId) {
  try {
    const seat = JSON.parse(localStorage.getItem(SEAT_KEY));
    return seat && seat.game === gameId ? seat : null;
  } catch (error) {
    return null;
  }
}

// This device's saved seat in the game shown now ({game, seat, token}), or null.
function mySeat() {
  return live.message ? savedSeat(live.gameIdOf(live.message)) : null;
}

function setOnline(online) {
  const conn = $("conn");
  conn.textContent = online ? "live" : "reconnecting…";
  conn.className = `conn ${online ? "online" : "offline"}`;
}

// Follows the table: render(message) draws each view message; gameIdOf(message) reads its game id.
function connectTo(gameIdOf, render) {
  live.gameIdOf = gameIdOf;
  live.render = render;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws`);
  live.ws = ws;
  ws.onopen = () => {
    live.retries = 0;
    setOnline(true);
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      live.message = message;
      $("simulated").hidden = !message.simulated;
      render(message);
    } else onReply(message);
  };
  ws.onclose = () => {
    setOnline(false);
    for (const resolve of live.pending.values()) resolve({ type: "error", error: "connection lost" });
    live.pending.clear();
    setTimeout(() => connectTo(gameIdOf, render), Math.min(5000, 250 * 2 ** live.retries++));
  };
}

// Sends an action (with this device's seat token); resolves with the table's reply.
function send(action) {
  const seat = mySeat();
  if (seat && action.type !== "join" && action.type !== "staff") action.token = seat.token;
  action.ref = String(++live.refs);
  if (!live.ws || live.ws.readyState !== WebSocket.OPEN) {
    say("Not connected to the table; trying again…");
    return Promise.resolve({ type: "error", error: "not connected" });
  }
  const reply = new Promise((resolve) => live.pending.set(action.ref, resolve));
  live.ws.send(JSON.stringify(action));
  return reply;
}

function onReply(reply) {
  const resolve = live.pending.get(reply.ref);
  live.pending.delete(reply.ref);
  if (reply.type === "joined") {
    const game = live.gameIdOf(live.message);
    localStorage.setItem(SEAT_KEY, JSON.stringify({ game, seat: reply.seat, token: reply.token }));
    say(`You play as ${reply.seat}.`, true);
    live.render(live.message);
  } else if (reply.type === "error") {
    if (reply.error.startsWith("join a seat")) {
      localStorage.removeItem(SEAT_KEY);
      live.render(live.message);
    }
    say(reply.error);
  } else {
    say("");
  }
  if (resolve) resolve(reply);
}

// The join code and QR on the table's screen; the seat form on a phone that has not joined.
function renderJoin(message) {
  const join = message.join;
  $("join-screen").hidden = !join;
  if (join) {
    $("join-code").textContent = join.code;
    $("qr").innerHTML = join.qr;
  }
  const needsSeat = message.phones && !message.screen && !savedSeat(live.gameIdOf(message));
  $("join-phone").hidden = !needsSeat;
  if (needsSeat) {
    const select = $("join-seat");
    if (select.options.length !== message.players.length) {
      select.replaceChildren(...message.players.map((p) => new Option(p, p)));
    }
    const code = new URLSearchParams(location.search).get("code");
    if (code && !$("join-code-input").value) $("join-code-input").value = code;
  }
}

function wireJoin() {
  $("join-phone").onsubmit = (event) => {
    event.preventDefault();
    send({ type: "join", seat: $("join-seat").value, code: $("join-code-input").value.trim() });
  };
}
