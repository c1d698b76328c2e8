// The GOTTA2 puzzle sheet at the table: the piece area, every player's board and bonus
// track; the current player picks a piece, then one of its highlighted spots, and the page
// sends {"type": "place" | "bonus", "piece", "row", "column"} (docs/games/gotta2.md).
// Only the view's legal spots are offered. A piece that fits nowhere may still be chosen
// ({"type": "choose"}: the end comes), and a bonus piece reached may be skipped
// ({"type": "skip"}). At the end each board's largest complete
// rectangle is highlighted and the scoring round is listed in the engine's order.
(function () {
  "use strict";

  // Per root: the piece picked and the spot armed (a first tap previews, the second places).
  const picks = new WeakMap();

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function key(row, column) {
    return row + "," + column;
  }

  // The cell of a piece the player aims with: its first cell in the top row.
  function handle(piece) {
    const top = piece.cells.filter((cell) => cell[0] === 0).map((cell) => cell[1]);
    return [0, Math.min.apply(null, top)];
  }

  function drawPiece(piece) {
    const grid = element("div", "g2-shape");
    grid.style.gridTemplateColumns = "repeat(" + piece.columns + ", var(--g2-mini))";
    grid.style.gridTemplateRows = "repeat(" + piece.rows + ", var(--g2-mini))";
    for (const [row, column] of piece.cells) {
      const cell = element("span", "g2-mini");
      cell.style.gridRow = String(row + 1);
      cell.style.gridColumn = String(column + 1);
      grid.appendChild(cell);
    }
    return grid;
  }

  function pieceButton(piece, label, offered, state, redraw) {
    const button = element("button", "g2-piece");
    button.type = "button";
    button.dataset.piece = piece.id;
    button.appendChild(drawPiece(piece));
    button.appendChild(element("span", "g2-label", label));
    button.disabled = !offered;
    if (piece.marks) button.classList.add(piece.marks > 1 ? "g2-crossed" : "g2-used");
    if (state.piece === piece.id) button.classList.add("g2-picked");
    button.addEventListener("click", () => {
      state.piece = state.piece === piece.id ? null : piece.id;
      state.armed = null;
      redraw();
    });
    return button;
  }

  function drawPieceArea(game, offered, state, redraw) {
    const area = element("section", "g2-area");
    area.id = "gotta2-pieces";
    for (const frame of game.frames) {
      const box = element("div", "g2-frame");
      box.dataset.frame = String(frame.frame);
      box.appendChild(element("h3", "", _("Frame {frame} · +{bonus}", { frame: frame.frame, bonus: frame.bonus })));
      const row = element("div", "g2-pieces");
      for (const piece of frame.pieces) {
        const left = piece.capacity - piece.marks;
        const label = piece.capacity > 1 ? _("{piece} ×{count}", { piece: piece.id, count: left }) : piece.id;
        row.appendChild(pieceButton(piece, label, piece.id in offered, state, redraw));
      }
      box.appendChild(row);
      area.appendChild(box);
    }
    const bonus = element("div", "g2-frame g2-bonus-area");
    bonus.appendChild(element("h3", "", _("Bonus pieces")));
    const row = element("div", "g2-pieces");
    for (const piece of game.bonus_pieces) {
      const label = _("{piece} at {box}", { piece: piece.id, box: piece.at });
      row.appendChild(pieceButton(piece, label, piece.id in offered, state, redraw));
    }
    bonus.appendChild(row);
    area.appendChild(bonus);
    return area;
  }

  function drawTrack(game, sheet) {
    const track = element("ol", "g2-track");
    const unlocks = new Set(game.bonus_pieces.map((piece) => piece.at));
    for (let box = 1; box <= game.bonus_track; box += 1) {
      const item = element("li", "g2-box", String(box));
      if (box <= sheet.bonus) item.classList.add("g2-marked");
      if (unlocks.has(box)) item.classList.add("g2-unlock");
      track.appendChild(item);
    }
    return track;
  }

  function drawBoard(view, player, spots, state, redraw) {
    const game = view.game;
    const sheet = game.sheets[player];
    const card = element("section", "g2-sheet");
    card.dataset.player = player;
    if (player === game.current && !view.over) card.classList.add("g2-current");
    if (view.winners.includes(player)) card.classList.add("g2-winner");

    const head = element("header", "g2-head");
    head.appendChild(element("span", "g2-name", player));
    const rectangle = sheet.rectangle;
    const sum = rectangle.rows + " × " + rectangle.columns + " × " + sheet.bonus + " = ";
    const points = element("span", "g2-points", sum);
    points.appendChild(element("strong", "", String(sheet.points)));
    head.appendChild(points);
    card.appendChild(head);

    const shaded = new Set(sheet.shaded.map((cell) => key(cell[0], cell[1])));
    const best = new Set(view.over ? rectangle.cells.map((cell) => key(cell[0], cell[1])) : []);
    const board = element("div", "g2-board");
    board.style.gridTemplateColumns = "repeat(" + game.board.columns + ", var(--g2-cell))";
    const cells = new Map();
    for (let row = 0; row < game.board.rows; row += 1) {
      for (let column = 0; column < game.board.columns; column += 1) {
        const cell = element("div", "g2-cell");
        cell.dataset.row = String(row);
        cell.dataset.column = String(column);
        if (shaded.has(key(row, column))) cell.classList.add("g2-shaded");
        if (best.has(key(row, column))) cell.classList.add("g2-rect");
        cells.set(key(row, column), cell);
        board.appendChild(cell);
      }
    }
    if (spots) addTargets(cells, spots, state, redraw);
    card.appendChild(board);
    card.appendChild(drawTrack(game, sheet));
    card.appendChild(element("p", "g2-unshaded", ngettext("{count} cell unshaded", "{count} cells unshaded", sheet.unshaded)));
    return card;
  }

  // The picked piece's legal spots on the acting player's board: each shows where the
  // piece's aiming cell lands; hovering or a first tap previews the piece, the second places.
  function addTargets(cells, spots, state, redraw) {
    const piece = spots.piece;
    const [aimRow, aimColumn] = handle(piece);
    const preview = (anchor, on) => {
      for (const [row, column] of piece.cells) {
        const cell = cells.get(key(anchor[0] + row, anchor[1] + column));
        if (cell) cell.classList.toggle("g2-preview", on);
      }
    };
    const armedAnchor = state.armed ? state.armed.split(",").map(Number) : null;
    if (armedAnchor) preview(armedAnchor, true);
    for (const anchor of spots.anchors) {
      const cell = cells.get(key(anchor[0] + aimRow, anchor[1] + aimColumn));
      const move = { type: spots.kind, piece: piece.id, row: anchor[0], column: anchor[1] };
      const target = element("button", "g2-target");
      target.type = "button";
      target.dataset.move = JSON.stringify(move);
      target.title = _("Place {piece} here", { piece: piece.id });
      const armed = state.armed === key(anchor[0], anchor[1]);
      if (armed) target.classList.add("g2-armed");
      target.addEventListener("mouseenter", () => preview(anchor, true));
      target.addEventListener("mouseleave", () => {
        preview(anchor, false);
        if (armedAnchor) preview(armedAnchor, true);
      });
      target.addEventListener("click", () => {
        if (armed) {
          spots.place(move);
        } else {
          state.armed = key(anchor[0], anchor[1]);
          redraw();
        }
      });
      cell.appendChild(target);
    }
  }

  function moveButton(id, text, move, spots) {
    const button = element("button", "g2-place", text);
    button.type = "button";
    button.id = id;
    button.dataset.move = JSON.stringify(move);
    button.addEventListener("click", () => spots.place(move));
    return button;
  }

  function drawConfirm(spots, state) {
    const bar = element("div", "g2-confirm");
    if (!spots) return bar;
    const id = spots.piece.id;
    if (spots.kind === "bonus") {
      const skip = { type: "skip", piece: id };
      bar.appendChild(moveButton("gotta2-skip", _("Skip {piece}", { piece: id }), skip, spots));
    }
    if (spots.kind === "place" && !spots.anchors.length) {
      const choose = { type: "choose", piece: id };
      const text = _("Choose {piece} (it fits nowhere: the game ends)", { piece: id });
      bar.appendChild(moveButton("gotta2-choose", text, choose, spots));
      return bar;
    }
    if (!state.armed) {
      bar.appendChild(element("span", "", _("Choose a highlighted cell for {piece}.", { piece: id })));
      return bar;
    }
    const [row, column] = state.armed.split(",").map(Number);
    const move = { type: spots.kind, piece: id, row: row, column: column };
    bar.appendChild(moveButton("gotta2-place", _("Place {piece} here", { piece: id }), move, spots));
    return bar;
  }

  // The results, best first (equal points keep the order the rules score in).
  function drawScoring(view) {
    const game = view.game;
    const list = element("ol", "g2-scoring");
    list.id = "gotta2-scoring";
    const ranked = game.scoring_order.slice().sort((a, b) => game.sheets[b].points - game.sheets[a].points);
    for (const player of ranked) {
      const sheet = game.sheets[player];
      const r = sheet.rectangle;
      const text = _("{player}: {rows} × {columns} × {bonus} = {points} ({unshaded} unshaded)", {
        player, rows: r.rows, columns: r.columns, bonus: sheet.bonus, points: sheet.points, unshaded: sheet.unshaded,
      });
      const item = element("li", view.winners.includes(player) ? "g2-winner" : "", text);
      item.dataset.player = player;
      list.appendChild(item);
    }
    return list;
  }

  function render(root, view, me, send) {
    const game = view.game;
    let state = picks.get(root);
    const turn = JSON.stringify([game.current, game.pending_bonus, game.held, view.over,
      Object.values(game.sheets).map((sheet) => sheet.placed.length)]);
    if (!state || state.turn !== turn) {
      state = { turn: turn, piece: null, armed: null };
      picks.set(root, state);
    }
    const legal = game.legal;
    const acting = legal && (me === "table" || me === legal.player) ? legal : null;
    const offered = acting ? acting.pieces : {};
    if (acting && (acting.move === "bonus" || acting.held)) state.piece = Object.keys(offered)[0];
    const redraw = () => render(root, view, me, send);
    let spots = null;
    if (acting && state.piece && state.piece in offered) {
      const all = game.frames.flatMap((frame) => frame.pieces).concat(game.bonus_pieces);
      spots = {
        kind: acting.move,
        piece: all.find((piece) => piece.id === state.piece),
        anchors: offered[state.piece],
        place: (move) => send(acting.player, move),
      };
    }

    root.replaceChildren();
    root.classList.add("g2-root");
    root.dataset.players = String(view.players.length);
    if (acting) {
      const help = acting.move === "bonus"
        ? _("{player}: place bonus piece {piece}, or skip it", { player: acting.player, piece: game.pending_bonus })
        : acting.held
          ? _("{player}: place {piece}, the piece chosen", { player: acting.player, piece: acting.held })
          : _("{player}: pick a piece, then a highlighted cell", { player: acting.player });
      root.appendChild(element("p", "g2-help", game.final_round ? _("Final round. {help}", { help }) : help));
    }
    root.appendChild(view.over ? drawScoring(view) : drawPieceArea(game, offered, state, redraw));
    root.appendChild(drawConfirm(spots, state));
    const boards = element("div", "g2-sheets");
    const order = view.players.slice();
    if (order.includes(me)) order.sort((a, b) => (b === me) - (a === me));
    for (const player of order) {
      const mine = spots && player === acting.player ? spots : null;
      const card = drawBoard(view, player, mine, state, redraw);
      if (player === me) card.classList.add("g2-mine");
      boards.appendChild(card);
    }
    root.appendChild(boards);
  }

  window.TABLE_GAMES = window.TABLE_GAMES || {};
  window.TABLE_GAMES.gotta2 = { render: render };
})();
