// The scoreboard page: renders view messages from /ws, sends the page's actions, reconnects.
"use strict";

const SEAT_KEY = "tabletop-seat";
const page = { message: null, ws: null, retries: 0, refs: 0 };
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
    const delay = Math.min(5000, 250 * 2 ** page.retries++);
    setTimeout(connect, delay);
  };
}

function setOnline(online) {
  const conn = $("conn");
  conn.textContent = online ? "live" : "reconnecting…";
  conn.className = `conn ${online ? "online" : "offline"}`;
}

function send(action) {
  const seat = page.message && savedSeat(page.message.view.game.id);
  if (seat && action.type !== "join" && action.type !== "staff") action.token = seat.token;
  action.ref = String(++page.refs);
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    say("Not connected to the table; trying again…");
    return;
  }
  page.ws.send(JSON.stringify(action));
}

function say(text) {
  $("message").textContent = text;
}

function onReply(reply) {
  if (reply.type === "joined") {
    const game = page.message.view.game.id;
    localStorage.setItem(SEAT_KEY, JSON.stringify({ game, seat: reply.seat, token: reply.token }));
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
}

function mayActFor(players) {
  const message = page.message;
  if (message.screen) return true;
  const seat = savedSeat(message.view.game.id);
  return Boolean(seat && players.includes(seat.seat));
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function swatch(color) {
  const dot = element("span", "swatch");
  dot.style.background = `var(--${color})`;
  return dot;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function renderScores(view) {
  const list = $("scores");
  list.replaceChildren();
  for (const c of view.competitors) {
    const item = element("li", `score${c.current ? " current" : ""}`);
    item.dataset.name = c.name;
    const name = element("span", "name");
    c.colors.forEach((color) => name.append(swatch(color)));
    name.append(c.name);
    const total = element("span", "total", String(c.total));
    total.dataset.total = String(c.total);
    const detail = element("span", "detail");
    const track = c.track.position ? `space ${c.track.position}` : "start";
    detail.append(`track: ${track} `);
    for (const token of c.track.tokens) {
      if (token.face) {
        const mark = element("span", "token", token.face);
        mark.style.background = `var(--${token.color})`;
        detail.append(mark, " ");
      }
    }
    if (view.game.jokers) detail.append(` · ${plural(c.jokers_left, "joker")}`);
    if (c.unused_joker_points) detail.append(` (+${c.unused_joker_points})`);
    const supply = element("span", "supply", `${plural(c.shapes_left, "shape")} left`);
    item.append(name, total, detail, supply);
    list.append(item);
  }
}

function renderBanner(message) {
  const game = message.view.game;
  let text;
  if (game.over) text = `Game over — ${game.winners.join(" and ")} win${game.winners.length > 1 ? "" : "s"}`;
  else if (game.turn) text = `Turn ${game.turn.number}: ${game.turn.player}${game.teams ? ` (${game.turn.for})` : ""}`;
  else text = game.status;
  $("turn").textContent = text;
  const seat = savedSeat(game.id);
  $("seat").textContent = message.screen ? "" : seat ? `you: ${seat.seat}` : "";
}

function renderQuestion(view) {
  const question = view.question;
  $("question").hidden = !question;
  if (!question) return;
  const mine = mayActFor([question.player]);
  $("question-text").textContent = mine ? question.text : `${question.player}, please answer: ${question.text}`;
  $("question-buttons").hidden = !mine;
  $("question").dataset.id = question.id;
}

function renderJoker(view) {
  const offer = view.joker_offer;
  const mine = Boolean(offer) && mayActFor(offer.players);
  $("joker").hidden = !mine;
  if (mine) $("joker-text").textContent = `Turn ${offer.turn} broke a rule: spend a joker to score it anyway?`;
}

function renderSelect(view) {
  const turn = view.game.turn;
  const show = Boolean(turn) && !view.question && !view.joker_offer && mayActFor([turn.player]);
  $("select").hidden = !show;
  if (!show) return;
  const current = view.competitors.find((c) => c.name === turn.for);
  const chosen = view.selection;
  const shapes = $("shapes");
  shapes.replaceChildren();
  for (const item of current.supply) {
    const button = element("button", "", `${item.color} ${item.shape} ×${item.count}`);
    button.type = "button";
    button.prepend(swatch(item.color));
    button.dataset.color = item.color;
    button.dataset.shape = item.shape;
    if (chosen && chosen.color === item.color && chosen.shape === item.shape) button.classList.add("chosen");
    button.onclick = () => send({ type: "select", color: item.color, shape: item.shape });
    shapes.append(button);
  }
  $("select-title").textContent = `${turn.player}: choose a shape`;
  $("confirm").disabled = !chosen;
}

function renderJoin(message) {
  const join = message.join;
  $("join-screen").hidden = !join;
  if (join) {
    $("join-code").textContent = join.code;
    $("qr").innerHTML = join.qr;
  }
  const needsSeat = message.phones && !message.screen && !savedSeat(message.view.game.id);
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

function render(message) {
  page.message = message;
  const view = message.view;
  $("board").innerHTML = message.svg;
  renderBanner(message);
  renderScores(view);
  const last = view.last_drop;
  $("verdict-text").textContent = last ? `Turn ${last.turn}, ${last.by}: ${last.explanation}` : "No shape dropped yet.";
  renderQuestion(view);
  renderJoker(view);
  renderSelect(view);
  renderJoin(message);
  document.body.dataset.game = view.game.id;
  document.body.dataset.turn = view.game.turn ? String(view.game.turn.number) : "over";
}

function wire() {
  $("yes").onclick = () => send({ type: "answer", question: $("question").dataset.id, yes: true });
  $("no").onclick = () => send({ type: "answer", question: $("question").dataset.id, yes: false });
  $("joker-spend").onclick = () => send({ type: "joker", spend: true });
  $("joker-decline").onclick = () => send({ type: "joker", spend: false });
  $("confirm").onclick = () => send({ type: "confirm" });
  $("join-phone").onsubmit = (event) => {
    event.preventDefault();
    send({ type: "join", seat: $("join-seat").value, code: $("join-code-input").value.trim() });
  };
  $("staff-abort").onclick = () => send({ type: "staff", op: "abort", pin: $("pin").value });
  $("staff-resync").onclick = () => send({ type: "staff", op: "resync", pin: $("pin").value });
}

wire();
connect();
