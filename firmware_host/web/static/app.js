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
  $("camera").hidden = !game.camera;
  $("camera").title = game.camera ? `${game.camera}: the strips and gates referee alone` : "";
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

function render(message) {
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
  wireJoin();
}

wire();
connectTo((message) => message.view.game.id, render);
