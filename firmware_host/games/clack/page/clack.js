// Clack! on the page: the two dice, the discs on the table (buttons to claim them) and every
// player's stack. The view's `game` part is described in docs/games/clack.md ("At the table").
// Claim buttons are offered only for the discs in `game.claimable`, and only to a device that
// may act for a waiting player: a phone for its own player, the table's screen for anyone
// (it first picks who grabs). Each claim button carries data-disc and data-move (its JSON).
// The page shell (dice.js) shows the status line, the scores (each stack's height, shown
// there only) and any refusal of a move.
(function () {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  const INK = {
    red: "#d62828", green: "#2a9d3a", yellow: "#e0a800", blue: "#1f5fd6", purple: "#7b2cbf",
    white: "#ffffff", black: "#1b1b1b",
  };

  // Each shape drawn in a 20 x 20 box centred on (10, 10).
  const SHAPES = {
    arrow: (g) => add(g, "polygon", { points: "2,8 11,8 11,3 19,10 11,17 11,12 2,12" }),
    star: (g) => add(g, "polygon", { points: starPoints(10, 10.5, 9.5, 4) }),
    puzzle: (g) => add(g, "path", {
      d: "M3 7 H7.5 A2.6 2.6 0 1 1 12.5 7 H17 V11 A2.6 2.6 0 1 0 17 16 V18 H3 Z",
    }),
    flower: (g) => {
      for (let i = 0; i < 5; i += 1) {
        const a = (i * 2 * Math.PI) / 5 - Math.PI / 2;
        add(g, "circle", { cx: 10 + 5 * Math.cos(a), cy: 10 + 5 * Math.sin(a), r: 3.8 });
      }
      add(g, "circle", { cx: 10, cy: 10, r: 3, fill: "#fff8dc" });
    },
    foot: (g) => {
      add(g, "ellipse", { cx: 10, cy: 13, rx: 5, ry: 6.5 });
      [[4.6, 4.6, 1.9], [7.8, 3, 1.7], [10.9, 2.6, 1.6], [13.8, 3.3, 1.4], [16, 5, 1.2]]
        .forEach(([cx, cy, r]) => add(g, "circle", { cx, cy, r }));
    },
  };

  function add(parent, tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
    parent.appendChild(node);
    return node;
  }

  function starPoints(cx, cy, outer, inner) {
    const points = [];
    for (let i = 0; i < 10; i += 1) {
      const r = i % 2 ? inner : outer;
      const a = (i * Math.PI) / 5 - Math.PI / 2;
      points.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
    }
    return points.join(" ");
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, String(v)));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // One shape in one colour at (x, y), scaled from its 20 x 20 box.
  function symbol(parent, shape, colour, x, y, size) {
    const g = add(parent, "g", {
      transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 20})`,
      fill: INK[colour] || INK.black, stroke: "#1b1b1b", "stroke-width": 0.8,
      class: `clack-symbol ${shape} ${colour}`,
    });
    SHAPES[shape](g);
    return g;
  }

  // A disc: a round tile with its symbols ("red arrow", ...) around the middle.
  function discSvg(disc) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    add(svg, "circle", { cx: 50, cy: 50, r: 47, class: "clack-face" });
    const n = disc.symbols.length;
    disc.symbols.forEach((text, i) => {
      const [colour, shape] = text.split(" ");
      const a = (i * 2 * Math.PI) / n - Math.PI / 2;
      symbol(svg, shape, colour, 50 + 23 * Math.cos(a), 52 + 23 * Math.sin(a), 38);
    });
    return svg;
  }

  // A symbol ("red star") in the page's language: its colour and shape are the dice's words.
  function symbolName(symbol) {
    const [color, shape] = symbol.split(" ");
    return _("{color} {shape}", { color: pgettext("clack colour", color), shape: pgettext("clack shape", shape) });
  }

  function describe(disc) {
    const symbols = new Intl.ListFormat(i18n.language, { type: "unit" }).format(disc.symbols.map(symbolName));
    return _("disc {id}: {symbols}", { id: disc.id, symbols });
  }

  // The dice: the shape die shows its shape in black, the colour die its colour; white is wild.
  function diceRow(game) {
    const row = el("div", { class: "clack-dice", id: "clack-dice" });
    const dice = game.dice;
    [["shape", dice && dice.shape], ["color", dice && dice.color]].forEach(([die, face]) => {
      const tile = el("div", { class: `clack-die ${die}`, "data-die": die, "data-face": face || "" });
      const svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("viewBox", "0 0 40 40");
      add(svg, "rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, class: "clack-die-face" });
      if (face && face !== "white") {
        if (die === "shape") symbol(svg, face, "black", 20, 20, 28);
        else add(svg, "circle", { cx: 20, cy: 20, r: 13, fill: INK[face], stroke: "#1b1b1b" });
      } else if (face === "white") {
        const wild = add(svg, "text", { x: 20, y: 21, class: "clack-wild" });
        wild.textContent = "★"; // wild: any shape or colour
      }
      tile.appendChild(svg);
      const context = die === "shape" ? "clack shape" : "clack colour";
      const word = !face ? "—" : face === "white" ? (die === "shape" ? _("any shape") : _("any colour")) : pgettext(context, face);
      tile.appendChild(el("span", { class: "clack-die-word" }, word));
      row.appendChild(tile);
    });
    return row;
  }

  // The words of a message with its {hole} matching `numbers` (a regular expression).
  function finder(words, hole, numbers) {
    const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(escaped.replace(hole.replace(/[{}]/g, "\\$&"), numbers), "g");
  }

  // The table's announcement with each disc named by its symbols (players never see
  // numbers): the announcement says "disc {disc}" / "discs {discs}" in the page's language.
  function inWords(text, byId) {
    const named = (id) => {
      const disc = byId.get(Number(id));
      if (!disc) return _("disc {disc}", { disc: id });
      return _("the {symbols} disc", { symbols: disc.symbols.map(symbolName).join(" + ") });
    };
    return text
      .replace(finder(_("discs {discs}"), "{discs}", "(\\d+(?:, \\d+)*)"), (found, ids) => ids.split(", ").map(named).join(", "))
      .replace(finder(_("disc {disc}"), "{disc}", "(\\d+)"), (found, id) => named(id));
  }

  // Who this device may claim for now: its own player, or (the table) any waiting player.
  function actors(view, me) {
    if (me === "table") return view.waiting_for.slice();
    return view.waiting_for.includes(me) ? [me] : [];
  }

  function render(root, view, me, send) {
    const game = view.game;
    const byId = new Map(game.discs.map((d) => [d.id, d]));
    const can = actors(view, me);
    if (!can.includes(root.dataset.clackFor)) root.dataset.clackFor = can[0] || "";
    const claimer = root.dataset.clackFor;
    const claimable = new Set(can.length ? game.claimable : []);
    root.replaceChildren();
    root.classList.add("clack");

    const head = el("div", { class: "clack-head" });
    head.appendChild(diceRow(game));
    const info = el("div", { class: "clack-info" });
    info.appendChild(el("p", { id: "clack-last", class: "clack-last" }, inWords(game.last || "", byId)));
    if (game.round_open) {
      const left = ngettext("{count} matching disc left", "{count} matching discs left", game.left);
      info.appendChild(el("p", { id: "clack-left", class: "clack-left" }, left));
    }
    head.appendChild(info);
    root.appendChild(head);

    if (me === "table" && can.length > 1) {
      const who = el("div", { class: "clack-claimer", id: "clack-claimer" });
      who.appendChild(el("span", {}, _("Who grabs?")));
      can.forEach((name) => {
        const b = el("button", { type: "button", "data-claimer": name }, name);
        if (name === claimer) b.classList.add("chosen");
        b.addEventListener("click", () => {
          root.dataset.clackFor = name;
          render(root, view, me, send);
        });
        who.appendChild(b);
      });
      root.appendChild(who);
    }

    const table = el("div", { class: "clack-table", id: "clack-table" });
    game.table.forEach((id) => {
      const disc = byId.get(id);
      const b = el("button", {
        type: "button", class: "clack-disc", id: `clack-disc-${id}`, "data-disc": id,
        "aria-label": describe(disc), title: describe(disc),
      });
      b.appendChild(discSvg(disc));
      if (claimable.has(id)) {
        const move = { type: "claim", disc: id, round: game.round };
        b.dataset.move = JSON.stringify(move);
        b.addEventListener("click", () => {
          const player = root.dataset.clackFor;
          b.disabled = true;
          // the page shows a refusal; the button waits for the reply, against double claims
          const again = () => { b.disabled = false; };
          send(player, move).then(again, again);
        });
      } else {
        b.disabled = true;
      }
      table.appendChild(b);
    });
    if (!game.table.length) table.appendChild(el("p", { class: "clack-empty" }, _("The table is empty.")));
    root.appendChild(table);

    const stacks = el("div", { class: "clack-stacks", id: "clack-stacks" });
    view.players.forEach((name) => {
      const stack = game.stacks[name];
      const card = el("section", { class: "clack-stack", "data-stack": name });
      if (view.winners.includes(name)) card.classList.add("winner");
      if (name === me || name === claimer) card.classList.add("mine");
      // the stack's height is the player's score: the score list shows it (once, ranked at the end)
      card.appendChild(el("h3", { class: "clack-name" }, name));
      const pile = el("div", { class: "clack-pile" });
      (view.over ? stack : stack.slice(-6)).slice().reverse().forEach((id) => {
        const chip = el("span", { class: "clack-chip", "data-disc": id, title: describe(byId.get(id)) });
        chip.appendChild(discSvg(byId.get(id)));
        pile.appendChild(chip);
      });
      card.appendChild(pile);
      stacks.appendChild(card);
    });
    root.appendChild(stacks);
  }

  window.TABLE_GAMES = window.TABLE_GAMES || {};
  window.TABLE_GAMES.clack = { render };
})();
