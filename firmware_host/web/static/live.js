// What every page of the table shares: the live WebSocket to the table (reconnecting),
// actions and their replies, this device's seat (kept in localStorage per game), joining
// with the code, the page's language, and small DOM helpers. A page calls
// connectTo(gameIdOf, render) once.
"use strict";

const SEAT_KEY = "tabletop-seat";
const $ = (id) => document.getElementById(id);
const live = { message: null, ws: null, retries: 0, refs: 0, pending: new Map(), gameIdOf: null, render: null };

// The page's language: its messages come from the service's catalogue
// (/api/messages), the words are written once, in English, where they are used.
const i18n = { language: "en", messages: {}, plural: (n) => Number(n !== 1), languages: [] };

// Fills {name} placeholders; numbers are written as the page's language writes them.
function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, name) => {
    const value = values ? values[name] : undefined;
    if (value === undefined) return all;
    return typeof value === "number" ? value.toLocaleString(i18n.language) : String(value);
  });
}

function _(message, values) {
  const found = i18n.messages[message];
  return fmt(typeof found === "string" ? found : message, values);
}

function pgettext(context, message, values) {
  const found = i18n.messages[`${context}\u0004${message}`];
  return fmt(typeof found === "string" ? found : message, values);
}

// The catalogue's plural form for count; {count} in the words is the count.
function ngettext(singular, plural, count, values) {
  const forms = i18n.messages[singular];
  const text = Array.isArray(forms) ? forms[i18n.plural(count)] : count === 1 ? singular : plural;
  return fmt(text, { count, ...values });
}

// Sets every data-i18n element's text (data-i18n-title: its title, -label: its ARIA label,
// -alt: an image's text, -placeholder: an input's example).
function translatePage() {
  document.documentElement.lang = i18n.language;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = _(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.title = _(node.dataset.i18nTitle);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", _(node.dataset.i18nLabel));
  for (const node of document.querySelectorAll("[data-i18n-alt]")) node.alt = _(node.dataset.i18nAlt);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = _(node.dataset.i18nPlaceholder);
  const switcher = $("languages");
  if (!switcher) return;
  switcher.replaceChildren();
  for (const other of i18n.languages) {
    if (other.code === i18n.language) continue;
    const button = element("button", "language", other.name);
    button.type = "button";
    button.lang = other.code;
    button.dataset.lang = other.code;
    button.onclick = () => {
      const query = new URLSearchParams(location.search);
      query.set("lang", other.code);
      location.search = query.toString();
    };
    switcher.append(button);
  }
}

// Loads the language the address asks for (?lang=), or the table's.
async function loadLanguage() {
  const asked = new URLSearchParams(location.search).get("lang") || "";
  const reply = await fetch(`/api/messages?lang=${encodeURIComponent(asked)}`, { cache: "no-store" });
  const catalogue = await reply.json();
  i18n.language = catalogue.language;
  i18n.messages = catalogue.messages;
  i18n.languages = catalogue.languages;
  i18n.plural = new Function("n", `return Number(${catalogue.plural});`);
  translatePage();
}

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
  conn.textContent = online ? _("live") : _("reconnecting…");
  conn.className = `conn ${online ? "online" : "offline"}`;
}

// Follows the table: render(message) draws each view message; gameIdOf(message) reads its game id.
// The page's words come first: the language is loaded once, then the WebSocket opens.
async function connectTo(gameIdOf, render) {
  if (!live.render) {
    try {
      await loadLanguage();
    } catch (error) {
      translatePage();
    }
  }
  live.gameIdOf = gameIdOf;
  live.render = render;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws?lang=${encodeURIComponent(i18n.language)}`);
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
    for (const resolve of live.pending.values()) resolve({ type: "error", error: _("connection lost") });
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
    say(_("Not connected to the table; trying again…"));
    return Promise.resolve({ type: "error", error: _("not connected") });
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
    say(_("You play as {seat}.", { seat: reply.seat }), true);
    live.render(live.message);
  } else if (reply.type === "error") {
    if (reply.seated === false) {
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
