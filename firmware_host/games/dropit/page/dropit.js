// The scoreboard page: renders view messages from /ws, sends the page's actions, reconnects.
"use strict";

function mayActFor(players) {
  const message = live.message;
  if (message.screen) return true;
  const seat = savedSeat(message.view.game.id);
  return Boolean(seat && players.includes(seat.seat));
}

function swatch(color) {
  const dot = element("span", "swatch");
  dot.style.background = `var(--${color})`;
  return dot;
}

// A piece as its button names it ("yellow square"): the catalogue has one message per
// colour and shape (marked in firmware_host/games/dropit/words.py), so each language can inflect
// the colour for the shape.
function pieceName(color, shape) {
  const name = `${color} ${shape}`;
  return pgettext("piece", name);
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
    const detail = element("span", "detail", ngettext("{count} shape left", "{count} shapes left", c.shapes_left));
    for (const token of c.track.tokens) {
      if (token.face) {
        const mark = element("span", "token", token.face);
        mark.style.background = `var(--${token.color})`;
        detail.append(" ", mark);
      }
    }
    if (view.game.jokers) detail.append(" · ", ngettext("{count} joker", "{count} jokers", c.jokers_left));
    if (c.unused_joker_points) detail.append(" ", _("(+{points})", { points: c.unused_joker_points }));
    item.append(name, total, detail);
    list.append(item);
  }
}

function renderBanner(message) {
  const game = message.view.game;
  let text;
  if (game.over) {
    const winners = new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(game.winners);
    text = ngettext("Game over: {winners} wins", "Game over: {winners} win", game.winners.length, { winners });
  } else if (game.turn && game.teams) {
    text = _("Turn {turn}: {player} ({team})", { turn: game.turn.number, player: game.turn.player, team: game.turn.for });
  } else if (game.turn) text = _("Turn {turn}: {player}", { turn: game.turn.number, player: game.turn.player });
  else text = game.status;
  $("turn").textContent = text;
  $("camera").hidden = !game.camera;
  $("camera").title = game.camera ? _("{why}: the strips and gates referee alone", { why: game.camera }) : "";
  const seat = savedSeat(game.id);
  $("seat").textContent = message.screen ? "" : seat ? _("you: {seat}", { seat: seat.seat }) : "";
}

// The prompt keeps its place whether or not a question is open: the page never jumps.
function renderPrompt(message) {
  const view = message.view;
  const question = view.question;
  const offer = view.joker_offer;
  $("question").hidden = !question;
  if (question) {
    const mine = mayActFor([question.player]);
    $("question-text").textContent = _("{player}, please answer: {question}", { player: question.player, question: question.text });
    $("question-buttons").hidden = !mine || question.choices.length > 0;
    $("question").dataset.id = question.id;
  }
  $("joker").hidden = !offer;
  if (offer) {
    const who = new Intl.ListFormat(i18n.language, { type: "disjunction" }).format(offer.players);
    $("joker-text").textContent = _("{team} broke a rule: {players}, spend a joker to score it anyway?", { team: offer.for, players: who });
    $("joker-buttons").hidden = !mayActFor(offer.players);
  }
  const game = view.game;
  const line = $("status-line");
  line.hidden = Boolean(question || offer);
  line.textContent = game.over ? _("The game is over: here are the results.") : game.status;
}

// How a total was made: each part is one whole message, the parts are a list.
function madeOf(result, jokers) {
  const parts = [_("levels {points}", { points: result.levels }), _("bonus {points}", { points: result.bonus })];
  if (jokers) parts.push(ngettext("{count} joker spent", "{count} jokers spent", result.jokers_spent));
  if (result.unused_joker_points) parts.push(_("unused jokers +{points}", { points: result.unused_joker_points }));
  parts.push(ngettext("{scored} of {count} drop scored", "{scored} of {count} drops scored", result.drops, { scored: result.scoring_drops }));
  return parts.join(" · ");
}

function renderResults(message) {
  const view = message.view;
  const results = view.results;
  $("results").hidden = !results;
  $("scores").hidden = Boolean(results);
  if (!results) return;
  const list = $("ranking");
  list.replaceChildren();
  for (const result of results) {
    const item = element("li", `result${result.rank === 1 ? " winner" : ""}`);
    item.dataset.name = result.name;
    item.dataset.rank = String(result.rank);
    const total = element("span", "total", String(result.total));
    total.dataset.total = String(result.total);
    item.append(
      element("span", "rank", `${result.rank}.`),
      element("span", "name", result.name),
      total,
      element("span", "detail", madeOf(result, view.game.jokers)),
    );
    list.append(item);
  }
  $("again").hidden = !mayActFor(message.players);
}

// The current player's shapes; or, when the referee asks which piece fell, its choices.
function renderSelect(view) {
  const turn = view.game.turn;
  const question = view.question;
  const picking = Boolean(question && question.choices.length);
  const who = picking ? question.player : turn && turn.player;
  const show = Boolean(turn) && (!question || picking) && !view.joker_offer && mayActFor([who]);
  $("select").hidden = !show;
  if (!show) return;
  const current = view.competitors.find((c) => c.name === turn.for);
  const chosen = picking ? null : view.selection;
  const items = picking ? question.choices : current.supply;
  const shapes = $("shapes");
  shapes.replaceChildren();
  for (const item of items) {
    const name = pieceName(item.color, item.shape);
    const label = item.count ? _("{piece} ×{count}", { piece: name, count: item.count }) : name;
    const button = element("button", "", label);
    button.type = "button";
    button.prepend(swatch(item.color));
    button.dataset.color = item.color;
    button.dataset.shape = item.shape;
    if (chosen && chosen.color === item.color && chosen.shape === item.shape) button.classList.add("chosen");
    button.onclick = () => send({ type: "select", color: item.color, shape: item.shape });
    shapes.append(button);
  }
  $("select-title").textContent = picking ? _("{player}: which shape fell?", { player: who }) : _("{player}: choose a shape", { player: who });
  $("confirm").hidden = picking;
  $("confirm").disabled = !chosen;
}

function render(message) {
  const view = message.view;
  $("board").innerHTML = message.svg;
  renderBanner(message);
  renderScores(view);
  const last = view.last_drop;
  $("verdict-text").textContent = last
    ? _("Turn {turn}, {player}: {verdict}", { turn: last.turn, player: last.by, verdict: last.explanation })
    : _("No shape dropped yet.");
  renderPrompt(message);
  renderSelect(view);
  renderResults(message);
  renderJoin(message);
  if (view.game.over) $("join-screen").hidden = true;
  document.body.dataset.game = view.game.id;
  document.body.dataset.turn = view.game.turn ? String(view.game.turn.number) : "over";
}

function wire() {
  $("yes").onclick = () => send({ type: "answer", question: $("question").dataset.id, yes: true });
  $("no").onclick = () => send({ type: "answer", question: $("question").dataset.id, yes: false });
  $("joker-spend").onclick = () => send({ type: "joker", spend: true });
  $("joker-decline").onclick = () => send({ type: "joker", spend: false });
  $("confirm").onclick = () => send({ type: "confirm" });
  $("again").onclick = () => send({ type: "again" });
  wireJoin();
}

wire();
connectTo((message) => message.view.game.id, render);
