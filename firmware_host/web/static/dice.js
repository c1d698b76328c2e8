// The dice games' page: the common part (players, scores, status, the throw, joining)
// and the game's own part, drawn by window.TABLE_GAMES[kind].render (games/*.js).
"use strict";

// This device's seat: "table" for the table's screen, a player's name, or null.
function me(message) {
  if (message.screen) return "table";
  const seat = mySeat();
  return seat ? seat.seat : null;
}

function renderBanner(message) {
  const view = message.view;
  $("title").textContent = view.title;
  let status = view.status;
  if (view.over) {
    const winners = new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(view.winners);
    status = ngettext("Game over: {winners} wins", "Game over: {winners} win", view.winners.length, { winners });
  }
  if (!view.table.link_up) status = _("Paused: {why}", { why: view.table.link });
  $("status").textContent = status;
  const seat = me(message);
  $("seat").textContent = seat && seat !== "table" ? _("you: {seat}", { seat }) : "";
}

// The scores; once the game is over, ranked best first (equal scores share a rank).
function renderScores(view) {
  const list = $("scores");
  list.replaceChildren();
  const order = view.over ? view.players.slice().sort((a, b) => view.scores[b] - view.scores[a]) : view.players;
  $("results-title").hidden = !view.over;
  let rank = 0;
  order.forEach((name, i) => {
    if (i === 0 || view.scores[name] !== view.scores[order[i - 1]]) rank = i + 1;
    const item = element("li", "score");
    if (view.over) item.dataset.rank = String(rank);
    if (view.waiting_for.includes(name)) item.classList.add("current");
    if (view.winners.includes(name)) item.classList.add("winner");
    item.dataset.name = name;
    const total = element("span", "total", String(view.scores[name]));
    total.dataset.total = String(view.scores[name]);
    const label = view.over ? _("{rank}. {player}", { rank, player: name }) : name;
    item.append(element("span", "name", label), total, element("span", "detail", view.score_label));
    list.append(item);
  });
}

function renderRoll(message) {
  const view = message.view;
  const roll = view.roll;
  $("roll").hidden = !roll;
  if (!roll) return;
  const rolling = view.table.rolling.length;
  $("roll-text").textContent = rolling
    ? _("The dice are rolling… ({count})", { count: rolling })
    : ngettext("{player}: throw the die in the tray", "{player}: throw {count} dice in the tray", roll.dice.length, { player: roll.by });
  const seat = me(message);
  $("roll-button").hidden = !(view.table.virtual_dice && !rolling && (seat === "table" || seat === roll.by));
}

let loadingGame = null;

// Loads the game's module (/static/games/KIND.js, and its CSS: the page/ folder of the game's
// package, firmware_host/games/KIND/page/) once, then draws again.
function loadGame(kind, title) {
  if (loadingGame === kind) return;
  loadingGame = kind;
  const style = element("link");
  style.rel = "stylesheet";
  style.href = `/static/games/${kind}.css`;
  document.head.append(style);
  const script = element("script");
  script.src = `/static/games/${kind}.js`;
  script.onload = () => render(live.message);
  script.onerror = () => ($("game").textContent = _("This page cannot draw {game}.", { game: title }));
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
  const view = message.view;
  renderBanner(message);
  renderScores(view);
  renderRoll(message);
  renderJoin(message);
  if (view.over) $("join-screen").hidden = true;
  $("again").hidden = !(view.over && me(message));
  renderGame(message);
  document.body.dataset.game = view.id;
  document.body.dataset.kind = view.kind;
  document.body.dataset.over = String(view.over);
}

function wire() {
  $("roll-button").onclick = () => send({ type: "roll" });
  $("again").onclick = () => send({ type: "again" });
  wireJoin();
}

wire();
connectTo((message) => message.view.id, render);
