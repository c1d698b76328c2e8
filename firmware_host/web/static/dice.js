// The dice games' page: the common part (players, scores, status, the throw, joining,
// staff) and the game's own part, drawn by window.TABLE_GAMES[kind].render (games/*.js).
"use strict";

const SEAT_KEY = "tabletop-seat";
const page = { message: null, ws: null, retries: 0, refs: 0, pending: new Map() };
const $ = (id) => document.getElementById(id);

function savedSeat(gameId) {
  try {
    const seat = JSON.parse(localStorage.getItem(SEAT_KEY));
    return seat && seat.game === gameId ? seat : null;
  } catch (error) {
    return null;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws`);
  page.ws = ws;
  ws.onopen = () => {
    page.retries = 0;
    setOnline(true);
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") render(message);
    else onReply(message);
  };
  ws.onclose = () => {
    setOnline(false);
    for (const resolve of page.pending.values()) resolve({ type: "error", error: "connection lost" });
    page.pending.clear();
    setTimeout(connect, Math.min(5000, 250 * 2 ** page.retries++));
  };
}

function setOnline(online) {
  const conn = $("conn");
  conn.textContent = online ? "live" : "reconnecting…";
  conn.className = `conn ${online ? "online" : "offline"}`;
}

// Sends an action; resolves with the server's reply (or an error if not connected).
function send(action) {
  const seat = page.message && savedSeat(page.message.view.id);
  if (seat && action.type !== "join" && action.type !== "staff") action.token = seat.token;
  action.ref = String(++page.refs);
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    say("Not connected to the table; trying again…");
    return Promise.resolve({ type: "error", error: "not connected" });
  }
  const reply = new Promise((resolve) => page.pending.set(action.ref, resolve));
  page.ws.send(JSON.stringify(action));
  return reply;
}

function say(text) {
  $("message").textContent = text;
}

function onReply(reply) {
  const resolve = page.pending.get(reply.ref);
  page.pending.delete(reply.ref);
  if (reply.type === "joined") {
    localStorage.setItem(SEAT_KEY, JSON.stringify({ game: page.message.view.id, seat: reply.seat, token: reply.token }));
    say(`You play as ${reply.seat}.`);
    render(page.message);
  } else if (reply.type === "error") {
    if (reply.error.startsWith("join a seat")) {
      localStorage.removeItem(SEAT_KEY);
      render(page.message);
    }
    say(reply.error);
  } else {
    say("");
  }
  if (resolve) resolve(reply);
}

// This device's seat: "table" for the table's screen, a player's name, or null.
function me(message) {
  if (message.screen) return "table";
  const seat = savedSeat(message.view.id);
  return seat ? seat.seat : null;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderBanner(message) {
  const view = message.view;
  $("title").textContent = view.title;
  let status = view.status;
  if (view.over) status = `Game over — ${view.winners.join(" and ")} win${view.winners.length > 1 ? "" : "s"}`;
  if (!view.table.link_up) status = `Paused: ${view.table.link}`;
  $("status").textContent = status;
  const seat = me(message);
  $("seat").textContent = seat && seat !== "table" ? `you: ${seat}` : "";
}

function renderScores(view) {
  const list = $("scores");
  list.replaceChildren();
  for (const name of view.players) {
    const item = element("li", "score");
    if (view.waiting_for.includes(name)) item.classList.add("current");
    if (view.winners.includes(name)) item.classList.add("winner");
    item.dataset.name = name;
    const total = element("span", "total", String(view.scores[name]));
    total.dataset.total = String(view.scores[name]);
    item.append(element("span", "name", name), total, element("span", "detail", view.score_label));
    list.append(item);
  }
}

function renderRoll(message) {
  const view = message.view;
  const roll = view.roll;
  $("roll").hidden = !roll;
  if (!roll) return;
  const rolling = view.table.rolling.length;
  $("roll-text").textContent = rolling
    ? `The dice are rolling… (${rolling})`
    : `${roll.by}: throw ${roll.dice.length === 1 ? "the die" : `${roll.dice.length} dice`} in the tray`;
  const seat = me(message);
  $("roll-button").hidden = !(view.table.virtual_dice && !rolling && (seat === "table" || seat === roll.by));
}

function renderJoin(message) {
  const join = message.join;
  $("join-screen").hidden = !join;
  if (join) {
    $("join-code").textContent = join.code;
    $("qr").innerHTML = join.qr;
  }
  const needsSeat = message.phones && !message.screen && !savedSeat(message.view.id);
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

// Loads the game's module (static/games/KIND.js, and its CSS) once, then draws again.
function loadGame(kind, title) {
  if (page.loading === kind) return;
  page.loading = kind;
  const style = element("link");
  style.rel = "stylesheet";
  style.href = `/static/games/${kind}.css`;
  document.head.append(style);
  const script = element("script");
  script.src = `/static/games/${kind}.js`;
  script.onload = () => render(page.message);
  script.onerror = () => ($("game").textContent = `This page cannot draw ${title}.`);
  document.head.append(script);
}

function renderGame(message) {
  const view = message.view;
  const root = $("game");
  const game = (window.TABLE_GAMES || {})[view.kind];
  if (!game) {
    loadGame(view.kind, view.title);
    return;
  }
  root.replaceChildren();
  const seat = me(message);
  game.render(root, view, seat, (player, move) => send({ type: "move", player, move }));
}

function render(message) {
  page.message = message;
  const view = message.view;
  renderBanner(message);
  renderScores(view);
  renderRoll(message);
  renderJoin(message);
  renderGame(message);
  document.body.dataset.game = view.id;
  document.body.dataset.kind = view.kind;
  document.body.dataset.over = String(view.over);
}

function wire() {
  $("roll-button").onclick = () => send({ type: "roll" });
  $("join-phone").onsubmit = (event) => {
    event.preventDefault();
    send({ type: "join", seat: $("join-seat").value, code: $("join-code-input").value.trim() });
  };
  $("staff-abort").onclick = () => send({ type: "staff", op: "abort", pin: $("pin").value });
}

wire();
connect();
