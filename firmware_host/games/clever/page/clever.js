// Auch schon clever on the dice games' page: the roll, every player's sheet, and the turn a
// waiting player builds step by step. The steps offered follow the rules the engine checks
// (firmware_host/games/clever/turn.py: order of each row, dice of the chosen colour and
// jokers, whole symbols, bonus crosses after the dice, chains); the view gives the sheet, the
// dice each waiting player may use and the colours they can use; the server checks the
// whole turn again when it is sent.
"use strict";

(function () {
  // The rows' names on the sheet, in the page's language.
  const SWEETS = { cupcake: () => _("cupcakes"), donut: () => _("donuts"), cake: () => _("cake") };
  const COLOURS = {
    yellow: () => pgettext("clever colour", "yellow"),
    blue: () => pgettext("clever colour", "blue"),
    green: () => pgettext("clever colour", "green"),
    red: () => pgettext("clever colour", "red"),
  };
  const colourName = (color) => (COLOURS[color] ? COLOURS[color]() : color);
  // The dice's symbols (the shipped sheet's; a symbol of another sheet is shown as written).
  const SYMBOLS = {
    heart: () => pgettext("clever symbol", "heart"),
    candle: () => pgettext("clever symbol", "candle"),
    present: () => pgettext("clever symbol", "present"),
    cupcake: () => pgettext("clever symbol", "cupcake"),
    donut: () => pgettext("clever symbol", "donut"),
    cake: () => pgettext("clever symbol", "cake"),
    blue: () => pgettext("clever symbol", "blue balloon"),
    pink: () => pgettext("clever symbol", "pink balloon"),
    green: () => pgettext("clever symbol", "green balloon"),
  };

  // -- the rules of a turn in the making (pure; tests call them through `logic`) ---------

  function boxesById(view) {
    const byId = new Map();
    for (const box of view.game.sheet.boxes) byId.set(box.id, box);
    return byId;
  }

  function crossable(view, crossed, area) {
    const sheet = view.game.sheet;
    if (area === "green") {
      return sheet.boxes.filter((b) => b.area === "green" && !crossed.has(b.id));
    }
    const byId = boxesById(view);
    const heads = [];
    for (const track of sheet.tracks) {
      if (byId.get(track.boxes[0]).area !== area) continue;
      const head = track.boxes.find((id) => !crossed.has(id));
      if (head !== undefined) heads.push(byId.get(head));
    }
    return heads;
  }

  function matches(face, box) {
    return face.color === null || (face.color === box.area && face.symbol === box.symbol);
  }

  function combinations(items, size) {
    if (size === 0) return [[]];
    const result = [];
    items.forEach((item, i) => {
      for (const rest of combinations(items.slice(i + 1), size - 1)) result.push([item, ...rest]);
    });
    return result;
  }

  function earned(view, crossed, box) {
    const green = view.game.sheet.green;
    const bonuses = box.bonus === null ? [] : [box.bonus];
    const after = new Set(crossed).add(box.id);
    green.columns.forEach((column, i) => {
      const color = green.column_bonuses[String(i + 1)];
      if (color && column.includes(box.id) && column.every((id) => after.has(id))) {
        bonuses.push(color);
      }
    });
    return bonuses;
  }

  function start(view, player, color) {
    const crossed = new Set(view.game.sheets[player].crossed);
    return { player, color, crossed, uses: [], bonuses: [], pending: [] };
  }

  function usedDice(draft) {
    return new Set(draft.uses.flatMap((u) => u.dice));
  }

  function useOptions(view, draft) {
    if (draft.bonuses.length) return [];
    const used = usedDice(draft);
    const faces = view.game.dice;
    const free = view.game.choices[draft.player].dice.filter(
      (d) => !used.has(d) && (faces[d].color === null || faces[d].color === draft.color),
    );
    const options = [];
    for (const box of crossable(view, draft.crossed, draft.color)) {
      const matching = free.filter((d) => matches(faces[d], box));
      for (const dice of combinations(matching, box.size)) options.push({ box: box.id, dice });
    }
    return options;
  }

  function use(view, draft, option) {
    const box = boxesById(view).get(option.box);
    return {
      ...draft,
      crossed: new Set(draft.crossed).add(box.id),
      uses: [...draft.uses, { box: box.id, dice: [...option.dice] }],
      pending: [...draft.pending, ...earned(view, draft.crossed, box)],
    };
  }

  function bonusOptions(view, draft) {
    const areas = [...new Set(draft.pending)];
    return areas.flatMap((area) => crossable(view, draft.crossed, area).map((b) => b.id));
  }

  function bonus(view, draft, id) {
    const box = boxesById(view).get(id);
    const pending = [...draft.pending];
    pending.splice(pending.indexOf(box.area), 1);
    return {
      ...draft,
      crossed: new Set(draft.crossed).add(id),
      bonuses: [...draft.bonuses, id],
      pending: [...pending, ...earned(view, draft.crossed, box)],
    };
  }

  function move(draft) {
    return { type: "choose", color: draft.color, uses: draft.uses, bonuses: draft.bonuses };
  }

  // -- drawing --------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) {
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
    }
    return node;
  }

  // A die's face as the sheet draws its symbol (a yellow face's colour is its balloon's).
  function dieLabel(face) {
    if (face.color === null) return [_("joker")];
    const glyph = boxLabel({ area: face.color, symbol: face.symbol, size: 1 });
    return [
      el("span", { class: `die-sym area-${face.color} sym-${face.symbol}` }, glyph),
      SYMBOLS[face.symbol] ? SYMBOLS[face.symbol]() : face.symbol,
    ];
  }

  // A die's hover words: "die 2: yellow, heart" or "die 5: joker".
  function dieTitle(die, face) {
    if (face.color === null) return _("die {die}: joker", { die });
    const symbol = SYMBOLS[face.symbol] ? SYMBOLS[face.symbol]() : face.symbol;
    return _("die {die}: {colour}, {symbol}", { die, colour: colourName(face.color), symbol });
  }

  // A box's hover words: its name, the bonus it gives and the stars it is worth.
  function boxTitle(box) {
    const values = { box: box.name, colour: colourName(box.bonus), stars: box.stars };
    if (box.bonus && box.stars) return _("{box}, {colour} bonus, {stars}★", values);
    if (box.bonus) return _("{box}, {colour} bonus", values);
    if (box.stars) return _("{box}, {stars}★", values);
    return box.name;
  }

  function drawDice(view) {
    const game = view.game;
    if (!game.dice.length) return el("p", { class: "clever-nodice" }, _("No dice rolled yet"));
    const left = game.left === null ? null : new Set(game.left);
    return el(
      "div",
      { class: "clever-dice", id: "clever-dice" },
      game.dice.map((face) =>
        el(
          "span",
          {
            class: `clever-die bg-${face.color || "joker"}${left && !left.has(face.die) ? " taken" : ""}`,
            "data-die": face.die,
            "data-face": face.face,
            title: dieTitle(face.die, face),
          },
          el("b", { title: _("die {die}", { die: face.die }) }, `#${face.die}`),
          dieLabel(face),
        ),
      ),
    );
  }

  function boxLabel(box) {
    if (box.area === "red") return "▮".repeat(box.size);
    if (box.area === "yellow") return box.symbol === "heart" ? "♥" : "●";
    return box.area === "blue" ? "●●" : "■";
  }

  function drawBox(box, sheetState, draw) {
    const crossed = sheetState.crossed.has(box.id);
    const drafted = draw.draft && draw.draft.crossed.has(box.id) && !crossed;
    const option = draw.optionBoxes.has(box.id);
    const classes = [
      "clever-box",
      `area-${box.area}`,
      `sym-${box.symbol}`,
      box.bonus ? `ring-${box.bonus}` : "",
      crossed ? "crossed" : "",
      drafted ? "drafted" : "",
      option ? "option" : "",
    ];
    return el(
      "span",
      {
        class: classes.filter(Boolean).join(" "),
        "data-box": box.id,
        title: boxTitle(box),
        onclick: option ? () => draw.pickBox(box.id) : null,
        role: option ? "button" : null,
      },
      el("span", { class: "sym" }, boxLabel(box)),
      box.stars ? el("span", { class: "stars" }, "★".repeat(box.stars)) : null,
    );
  }

  function trackBoxes(view, name) {
    return view.game.sheet.tracks.find((t) => t.name === name).boxes;
  }

  function drawSheet(view, player, draw) {
    const sheet = view.game.sheet;
    const mine = view.game.sheets[player];
    const state = { crossed: new Set(mine.crossed) };
    const byId = boxesById(view);
    const row = (ids, label, cls) =>
      el(
        "div",
        { class: `clever-row ${cls || ""}` },
        label ? el("span", { class: "row-label" }, label) : null,
        ids.map((id) => drawBox(byId.get(id), state, draw)),
      );
    const green = sheet.green;
    const columnFoot = el(
      "div",
      { class: "clever-row green-foot" },
      el("span", { class: "row-label" }),
      green.columns.map((_, i) => {
        const color = green.column_bonuses[String(i + 1)];
        return el(
          "span",
          { class: `foot ${color ? `bg-${color}` : ""}` },
          i === 0 && green.left_column_stars ? "★".repeat(green.left_column_stars) : "",
        );
      }),
    );
    const stars = mine.stars;
    return el(
      "div",
      { class: "clever-sheet", "data-player": player, id: `clever-sheet-${player}` },
      el(
        "h3",
        {},
        el("span", { class: "name" }, player),
        el("span", { class: "total", "data-stars": view.scores[player] }, `${view.scores[player]} ★`),
      ),
      el(
        "div",
        { class: "area area-yellow" },
        el("span", { class: "area-stars" }, `${stars.yellow}★`),
        row(trackBoxes(view, "yellow"), _("balloons")),
      ),
      el(
        "div",
        { class: "area area-red" },
        el("span", { class: "area-stars" }, `${stars.red}★`),
        row(trackBoxes(view, "red"), _("candles")),
      ),
      el(
        "div",
        { class: "area area-blue" },
        el("span", { class: "area-stars" }, `${stars.blue}★`),
        sheet.tracks
          .filter((track) => track.name.startsWith("blue."))
          .map((track) => {
            const sweet = track.name.slice("blue.".length);
            return row(track.boxes, SWEETS[sweet] ? SWEETS[sweet]() : sweet);
          }),
      ),
      el(
        "div",
        { class: "area area-green" },
        el("span", { class: "area-stars" }, `${stars.green}★`),
        green.rows.map((ids) =>
          row(ids, green.row_stars ? "★".repeat(green.row_stars) : "", "green-row"),
        ),
        columnFoot,
      ),
    );
  }

  // Where a box is on its sheet, in few words: "3" (the third balloon or wagon), "cake 2",
  // "r1 c2" (a present's row and column); its symbol is drawn beside it.
  function boxPlace(box) {
    const parts = box.id.split(".").slice(1);
    if (box.area === "green") return `r${parts[0]} c${parts[1]}`;
    return parts.join(" ");
  }

  // A compact choice: the box's symbol and place; the full words go to title and aria-label.
  function boxChoice(box) {
    return [
      el("span", { class: `sym area-${box.area} sym-${box.symbol}`, "aria-hidden": "true" }, boxLabel(box)),
      el("span", { class: "place" }, boxPlace(box)),
    ];
  }

  // The dice a group of choices pays with, as small chips: "#0 ★" (a joker), "#1 ●".
  function diceChips(view, dice) {
    return dice.map((d) => {
      const face = view.game.dice[d];
      const glyph = face.color === null ? "★" : boxLabel({ area: face.color, symbol: face.symbol, size: 1 });
      return el(
        "span",
        { class: `clever-chip bg-${face.color || "joker"}`, title: dieTitle(d, face) },
        `#${d}`,
        el("span", { class: `die-sym area-${face.color} sym-${face.symbol}` }, glyph),
      );
    });
  }

  // The choices of a turn in the making, grouped by the dice they pay with (then the bonus
  // crosses due); the lit boxes on the player's sheet are the same choices, tapped there.
  // Dice showing the same faces pay alike: their choices are offered once, with the first.
  function drawChoices(view, player, page, draft, button) {
    const face = (d) => `${view.game.dice[d].color} ${view.game.dice[d].symbol}`;
    const faces = (option) => option.dice.map(face).join(",");
    const groups = new Map();
    const offered = new Set();
    for (const option of useOptions(view, draft)) {
      const same = `${faces(option)}|${option.box}`;
      if (offered.has(same)) continue;
      offered.add(same);
      const key = faces(option);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(option);
    }
    const byId = boxesById(view);
    const rows = [...groups].map(([, options]) =>
      el(
        "div",
        { class: "clever-group", "data-dice": options[0].dice.join(",") },
        el("span", { class: "clever-group-dice" }, diceChips(view, options[0].dice)),
        options.map((option) => {
          const box = byId.get(option.box);
          const dice = option.dice.map((d) => `#${d}`).join(" + ");
          const words = ngettext("{box} with die {dice}", "{box} with dice {dice}", option.dice.length, { box: box.name, dice });
          return button(
            {
              "data-move": "use",
              "data-box": option.box,
              "data-dice": option.dice.join(","),
              class: `choice bg-${draft.color}`,
              title: words,
              "aria-label": words,
              onclick: () => page.step(player, (d) => use(view, d, option)),
            },
            boxChoice(box),
          );
        }),
      ),
    );
    const bonuses = bonusOptions(view, draft);
    if (bonuses.length) {
      rows.push(
        el(
          "div",
          { class: "clever-group bonus" },
          el("span", { class: "clever-group-dice" }, _("bonus ✕")),
          bonuses.map((id) => {
            const target = byId.get(id);
            const words = _("bonus cross: {box}", { box: target.name });
            return button(
              {
                "data-move": "bonus",
                "data-box": id,
                class: `choice bg-${target.area}`,
                title: words,
                "aria-label": words,
                onclick: () => page.step(player, (d) => bonus(view, d, id)),
              },
              boxChoice(target),
            );
          }),
        ),
      );
    }
    const hint = rows.length ? _("Tap a lit box on your sheet, or here:") : _("Nothing more to cross.");
    return el("div", { class: "clever-choices" }, el("p", { class: "clever-hint" }, hint), rows);
  }

  function drawActions(view, player, page) {
    const choices = view.game.choices[player];
    const draft = page.draftOf(player);
    const head = el("h3", {}, _("{player}: your choice", { player }));
    const box = el("div", { class: "clever-actions", "data-player": player }, head);
    const error = page.errors.get(player);
    if (error) box.append(el("p", { class: "clever-error" }, error));
    const buttons = el("div", { class: "clever-buttons" });
    const button = (attrs, label) =>
      el("button", { type: "button", "data-player": player, disabled: page.busy, ...attrs }, label);
    if (!draft) {
      box.append(buttons);
      for (const color of choices.colors) {
        buttons.append(
          button(
            { "data-move": "color", "data-color": color, class: `bg-${color}`, onclick: () => page.begin(player, color) },
            colourName(color),
          ),
        );
      }
      if (choices.may_pass) {
        buttons.append(button({ "data-move": "pass", onclick: () => page.pass(player) }, _("pass")));
      }
      return box;
    }
    const byId = boxesById(view);
    const name = (id) => byId.get(id).name;
    const crossed = [...draft.uses.map((u) => name(u.box)), ...draft.bonuses.map((b) => _("{box} (bonus)", { box: name(b) }))];
    const list = new Intl.ListFormat(i18n.language, { type: "unit" });
    const colour = colourName(draft.color);
    let words = crossed.length ? _("{colour}: {boxes}", { colour, boxes: list.format(crossed) }) : _("{colour}: choose what to cross", { colour });
    if (draft.pending.length) words = _("{turn} — bonus crosses due: {boxes}", { turn: words, boxes: list.format(draft.pending) });
    box.append(
      el("p", { class: "clever-draft" }, words),
      drawChoices(view, player, page, draft, button),
      buttons,
    );
    buttons.append(
      button(
        { "data-move": "choose", class: "done", disabled: page.busy || !draft.uses.length, onclick: () => page.finish(player) },
        _("done"),
      ),
      button({ "data-move": "undo", onclick: () => page.undo(player) }, _("start over")),
    );
    return box;
  }

  // -- the page module ------------------------------------------------------------------

  // Turns in the making survive re-renders while the game stands where they began.
  const state = { drafts: new Map(), errors: new Map(), busy: false, last: null };

  function stamp(view, player) {
    const game = view.game;
    const faces = game.dice.map((d) => d.face).join("");
    return `${game.turn}|${game.phase}|${faces}|${game.sheets[player].crossed.length}`;
  }

  function render(root, view, me, send) {
    state.last = { root, view, me, send };
    const actors = view.waiting_for.filter((p) => me === "table" || p === me);
    for (const [player, kept] of state.drafts) {
      if (!actors.includes(player) || kept.stamp !== stamp(view, player)) state.drafts.delete(player);
    }
    const again = () => render(root, view, me, send);
    const page = {
      busy: state.busy,
      errors: state.errors,
      draftOf: (player) => (state.drafts.has(player) ? state.drafts.get(player).draft : null),
      begin(player, color) {
        state.errors.delete(player);
        state.drafts.set(player, { stamp: stamp(view, player), draft: start(view, player, color) });
        again();
      },
      step(player, change) {
        const kept = state.drafts.get(player);
        kept.draft = change(kept.draft);
        again();
      },
      undo(player) {
        state.drafts.delete(player);
        again();
      },
      pass(player) {
        submit(player, { type: "pass" });
      },
      finish(player) {
        submit(player, move(state.drafts.get(player).draft));
      },
    };
    function submit(player, chosen) {
      state.busy = true;
      again();
      Promise.resolve(send(player, chosen)).then(
        (reply) => {
          state.busy = false;
          if (reply && reply.type === "error") state.errors.set(player, reply.error);
          else {
            state.errors.delete(player);
            state.drafts.delete(player);
          }
          if (state.last.root === root) render(root, state.last.view, me, send);
        },
        (error) => {
          state.busy = false;
          state.errors.set(player, String(error));
          if (state.last.root === root) render(root, state.last.view, me, send);
        },
      );
    }

    // each drafting player's sheet shows their turn so far and the boxes they may cross next
    const optionsFor = (player) => {
      const draft = page.draftOf(player);
      if (!draft) return [];
      return [...useOptions(view, draft).map((o) => o.box), ...bonusOptions(view, draft)];
    };
    const sheetsFirst = me !== "table" && view.players.includes(me)
      ? [me, ...view.players.filter((p) => p !== me)]
      : view.players;
    const sheets = sheetsFirst.map((player) => {
      const draft = actors.includes(player) ? page.draftOf(player) : null;
      const optionBoxes = new Set(optionsFor(player));
      const pickBox = (id) => {
        // a click on the sheet pays with the fewest jokers; the buttons offer every way
        const jokers = (o) => o.dice.filter((d) => view.game.dice[d].color === null).length;
        const uses = draft ? useOptions(view, draft).filter((o) => o.box === id) : [];
        uses.sort((a, b) => jokers(a) - jokers(b));
        if (uses.length) return page.step(player, (d) => use(view, d, uses[0]));
        return page.step(player, (d) => bonus(view, d, id));
      };
      return drawSheet(view, player, { draft, optionBoxes, pickBox });
    });
    root.replaceChildren(
      el(
        "div",
        { class: "clever", "data-turn": view.game.turn, "data-phase": view.game.phase },
        drawDice(view),
        actors.map((player) => drawActions(view, player, page)),
        el("div", { class: "clever-sheets" }, sheets),
      ),
    );
  }

  window.TABLE_GAMES = window.TABLE_GAMES || {};
  window.TABLE_GAMES.clever = {
    render,
    logic: { start, useOptions, use, bonusOptions, bonus, move },
  };
})();
