// The staff view: unlocked with the staff PIN (kept for this tab only), the staff actions
// on the game, and the camera's last look (the latest verdict's frame with its outlines).
"use strict";

const PIN_KEY = "tabletop-staff-pin";
const staff = { pin: sessionStorage.getItem(PIN_KEY) || "", look: null, frame: null, asked: 0 };


// Reads a staff address with the PIN; resolves with the fetch Response.
function staffGet(path) {
  const url = new URL(path, location.href);
  // a refusal in this page's language (the one asked for: the words may not have loaded yet)
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked) url.searchParams.set("lang", asked);
  return fetch(url, { headers: { "X-Staff-Pin": staff.pin }, cache: "no-store" });
}

function showLocked(locked) {
  $("unlock").hidden = !locked;
  $("panel").hidden = locked;
}

function lookText(look) {
  const what = { turn: look.turn, player: look.player, piece: look.piece ? pgettext("piece", look.piece) : "", why: look.camera };
  switch (look.state) {
    case "no camera": return _("This table has no camera.");
    case "no look yet": return look.camera === "ok" ? _("No look yet: nothing has been judged in this game.") : _("No look yet; the camera is out: {why}.", what);
    case "camera out":
      if (look.camera === "ok") return _("Camera out: turn {turn}, {player}'s {piece} was judged by the strips and gates alone.", what);
      return _("Camera out: turn {turn}, {player}'s {piece} was judged by the strips and gates alone ({why}).", what);
    default: return _("The look at turn {turn}, {player}'s {piece}: the located outlines over the camera's frame.", what);
  }
}

async function showFrame(look) {
  const img = $("look-frame");
  if (!look.image) {
    img.hidden = true;
    return;
  }
  if (staff.frame === look.image) return;
  const reply = await staffGet(look.image);
  if (!reply.ok) return;
  const url = URL.createObjectURL(await reply.blob());
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  img.src = url;
  img.dataset.turn = String(look.turn);
  img.hidden = false;
  staff.frame = look.image;
}

// Asks for the last look; an unknown PIN locks the view again.
async function refreshLook() {
  if (!staff.pin) return showLocked(true);
  const asked = ++staff.asked;
  let reply;
  try {
    reply = await staffGet("/api/staff/look");
  } catch (error) {
    return say(_("Not connected to the table; trying again…"));
  }
  if (asked !== staff.asked) return;
  if (reply.status === 403) {
    const refusal = await reply.json();
    sessionStorage.removeItem(PIN_KEY);
    staff.pin = "";
    showLocked(true);
    return say(refusal.error);
  }
  const look = await reply.json();
  staff.look = look;
  showLocked(false);
  $("look").dataset.state = look.state;
  $("look-text").textContent = lookText(look);
  await showFrame(look);
}

// Fills the set-up form with this game's players and settings (until staff edit it): the
// fields the game takes (its view message's staff part), the others hidden.
function fillSetUp(staffPart) {
  const form = $("new-game");
  const fields = staffPart.fields;
  form.dataset.fields = fields.join(" ");
  for (const [id, field] of [["new-edges", "edges"], ["new-jokers", "jokers"], ["new-teams", "teams"]]) {
    $(id).parentElement.hidden = !fields.includes(field);
  }
  if (form.dataset.edited) return;
  const setup = staffPart.setup;
  const named = (c) => (c.colors.length ? `${c.name} (${c.colors.map(colourWord).join(" ")})` : c.name);
  $("new-players").value = setup.players.map(named).join(", ");
  $("new-teams").value = setup.teams ? setup.teams.map((t) => `${named(t)}: ${t.members.join(", ")}`).join("; ") : "";
  if (setup.settings) {
    $("new-edges").value = setup.settings.edges;
    $("new-jokers").checked = setup.settings.jokers;
  }
}

// The colours as the form writes them, in the page's language (the English codes are read too).
const COLOURS = {
  red: () => pgettext("colour", "red"),
  blue: () => pgettext("colour", "blue"),
  yellow: () => pgettext("colour", "yellow"),
  green: () => pgettext("colour", "green"),
};
const colourWord = (code) => (COLOURS[code] ? COLOURS[code]() : code);

// A colour typed in the form: its code ("Rot", "rot" or "red" -> "red"); unknown words as typed.
function colourCode(word) {
  const lower = word.toLowerCase();
  const found = Object.keys(COLOURS).find((code) => code === lower || colourWord(code).toLowerCase() === lower);
  return found || word;
}

// "Ann (red blue)" -> {name: "Ann", colors: ["red", "blue"]}
function withColors(text) {
  const found = text.trim().match(/^([^(]*?)\s*(?:\(([^)]*)\))?$/);
  const colors = found && found[2] ? found[2].split(/[\s,+]+/).filter(Boolean).map(colourCode) : [];
  return { name: found ? found[1].trim() : text.trim(), colors };
}

// The set-up the form describes, as the staff action's keys.
function setUpOf() {
  const outside = /,(?![^(]*\))/; // commas outside brackets
  const teamsText = $("new-teams").value.trim();
  const fields = $("new-game").dataset.fields.split(" ");
  const more = {};
  if (fields.includes("teams") && teamsText) {
    more.teams = teamsText.split(";").filter((t) => t.trim()).map((team) => {
      const [head, members = ""] = team.split(":");
      const { name, colors } = withColors(head);
      return { name, colors, members: members.split(",").map((m) => m.trim()).filter(Boolean) };
    });
  } else {
    const players = $("new-players").value.split(outside).filter((p) => p.trim()).map(withColors);
    more.players = players.map((p) => p.name);
    if (fields.includes("colours")) more.colors = players.map((p) => p.colors);
  }
  if (fields.includes("edges")) more.settings = { edges: $("new-edges").value, jokers: $("new-jokers").checked };
  return more;
}

function render(message) {
  const staffPart = message.staff;
  $("status").textContent = staffPart.status;
  $("game-status").textContent = staffPart.status;
  $("staff-resync").hidden = !staffPart.ops.includes("resync");
  fillSetUp(staffPart);
  document.body.dataset.game = live.gameIdOf(message);
  refreshLook();
}

const DONE = { abort: () => _("The game was aborted."), resync: () => _("Re-synced: the turn starts again."), new: () => _("The new game begins.") };

async function staffAction(op, more) {
  const reply = await send({ type: "staff", op, pin: staff.pin, ...more });
  if (reply.type === "done") say(DONE[op](), true);
  return reply;
}

function wire() {
  $("unlock").onsubmit = (event) => {
    event.preventDefault();
    staff.pin = $("pin").value.trim();
    sessionStorage.setItem(PIN_KEY, staff.pin);
    staff.frame = null;
    say("");
    refreshLook();
  };
  $("lock").onclick = () => {
    sessionStorage.removeItem(PIN_KEY);
    staff.pin = "";
    $("pin").value = "";
    showLocked(true);
  };
  $("staff-resync").onclick = () => staffAction("resync");
  $("staff-abort").onclick = () => staffAction("abort");
  $("new-game").oninput = () => { $("new-game").dataset.edited = "yes"; };
  $("new-game").onsubmit = async (event) => {
    event.preventDefault();
    const reply = await staffAction("new", setUpOf());
    if (reply.type === "done") delete $("new-game").dataset.edited;
  };
  showLocked(!staff.pin);
}

wire();
connectTo((message) => message.staff.game, render);
