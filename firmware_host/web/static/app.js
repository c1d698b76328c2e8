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
    const detail = element("span", "detail", `${plural(c.shapes_left, "shape")} left`);
    for (const token of c.track.tokens) {
      if (token.face) {
        const mark = element("span", "token", token.face);
        mark.style.background = `var(--${token.color})`;
        detail.append(" ", mark);
      }
    }
    if (view.game.jokers) detail.append(` · ${plural(c.jokers_left, "joker")}`);
    if (c.unused_joker_points) detail.append(` (+${c.unused_joker_points})`);
    item.append(name, total, detail);
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
  $("camera").hidden = !game.camera;
  $("camera").title = game.camera ? `${game.camera}: the strips and gates referee alone` : "";
  const seat = savedSeat(game.id);
  $("seat").textContent = message.screen ? "" : seat ? `you: ${seat.seat}` : "";
}

// The prompt keeps its place whether or not a question is open: the page never jumps.
function renderPrompt(message) {
  const view = message.view;
  const question = view.question;
  const offer = view.joker_offer;
  $("question").hidden = !question;
  if (question) {
    const mine = mayActFor([question.player]);
    $("question-text").textContent = `${question.player}, please answer: ${question.text}`;
    $("question-buttons").hidden = !mine || question.choices.length > 0;
    $("question").dataset.id = question.id;
  }
  $("joker").hidden = !offer;
  if (offer) {
    const who = offer.players.join(" or ");
    $("joker-text").textContent = `${offer.for} broke a rule: ${who}, spend a joker to score it anyway?`;
    $("joker-buttons").hidden = !mayActFor(offer.players);
  }
  const game = view.game;
  const line = $("status-line");
  line.hidden = Boolean(question || offer);
  line.textContent = game.over ? "The game is over: here are the results." : game.status;
}

function madeOf(result, jokers) {
  const parts = [`levels ${result.levels}`, `bonus ${result.bonus}`];
  if (jokers) parts.push(`${plural(result.jokers_spent, "joker")} spent`);
  if (result.unused_joker_points) parts.push(`unused jokers +${result.unused_joker_points}`);
  return `${parts.join(" · ")} (${result.scoring_drops} of ${plural(result.drops, "drop")} scored)`;
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
    const label = item.count ? `${item.color} ${item.shape} ×${item.count}` : `${item.color} ${item.shape}`;
    const button = element("button", "", label);
    button.type = "button";
    button.prepend(swatch(item.color));
    button.dataset.color = item.color;
    button.dataset.shape = item.shape;
    if (chosen && chosen.color === item.color && chosen.shape === item.shape) button.classList.add("chosen");
    button.onclick = () => send({ type: "select", color: item.color, shape: item.shape });
    shapes.append(button);
  }
  $("select-title").textContent = picking ? `${who}: which shape fell?` : `${who}: choose a shape`;
  $("confirm").hidden = picking;
  $("confirm").disabled = !chosen;
}

function render(message) {
  const view = message.view;
  $("board").innerHTML = message.svg;
  renderBanner(message);
  renderScores(view);
  const last = view.last_drop;
  $("verdict-text").textContent = last ? `Turn ${last.turn}, ${last.by}: ${last.explanation}` : "No shape dropped yet.";
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
