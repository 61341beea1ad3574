"use strict";
// The replay page's behaviour. The game description (cards, layout, the answer and the validator's
// verdict) is embedded as JSON; this script draws it and applies the game's rules for play by hand.
(function () {
  const game = JSON.parse(document.getElementById("game-data").textContent);
  const byId = (id) => document.getElementById(id);
  const answer = game.answer;
  const original = answer ? answer.moves.slice() : [];
  const view = {script: original.slice(), cursor: 0, ownPlay: false, selected: null, timer: null, message: ""};

  const cardName = (card) => game.cards[card].name;
  const RECENT = 3; // foundation cards shown under the current one
  const last = (list) => list[list.length - 1];

  // Black Hole and Binary Star: cards lie in piles (top card first) and go one by one onto foundations.
  const where = {}; // card -> [pile, depth]
  if (game.piles) game.piles.forEach((pile, index) => pile.forEach((card, depth) => { where[card] = [index, depth]; }));
  const pileCards = game.piles ? game.piles.reduce((sum, pile) => sum + pile.length, 0) : 0;
  // one rank apart, the highest rank and the lowest adjacent
  function follows(first, second) {
    const ranks = game.ranks;
    const difference = (((game.values[first] - game.values[second]) % ranks) + ranks) % ranks;
    return ranks > 1 && (difference === 1 || difference === ranks - 1);
  }
  const tops = (state) => game.piles.map((pile, index) => pile[state.depth[index]])
    .filter((card) => card !== undefined);
  const taken = (state, card) => {
    const depth = state.depth.slice();
    depth[where[card][0]] += 1;
    return depth;
  };
  const left = (state) => game.piles.reduce((sum, pile, index) => sum + pile.length - state.depth[index], 0);
  const covered = (state, card) => { // why a card that is not a top card cannot move, or null for a top card
    const [index, depth] = where[card];
    const top = game.piles[index][state.depth[index]];
    return depth > state.depth[index] ? `${cardName(card)} is under ${cardName(top)}` : null;
  };
  const piled = {
    won: (state) => left(state) === 0,
    wonText: () => `Won: all ${pileCards} cards played.`,
    stuckText(state) {
      const count = left(state);
      return `Stuck: no legal play; ${count} card${count === 1 ? "" : "s"} left.`;
    },
  };

  // Black Hole, All in a Row and generalised deals: a move is the card played onto the foundation.
  const blackHole = Object.assign({}, piled, {
    start() {
      return {depth: game.piles.map(() => 0), foundation: game.foundation === null ? [] : [game.foundation]};
    },
    legal(state) {
      const hole = state.foundation.length ? last(state.foundation) : null;
      return tops(state).filter((top) => hole === null || follows(hole, top));
    },
    apply: (state, card) => ({depth: taken(state, card), foundation: state.foundation.concat([card])}),
    same: (first, second) => first === second,
    label: (move) => cardName(move),
    explain: (state, move) => cardName(move),
    whyNot: (state, card) => covered(state, card)
      || `${cardName(card)} does not follow ${cardName(last(state.foundation))}`,
  });

  // Binary Star: a move [card, foundation] plays a top card onto one of two (or more) foundations.
  const binaryStar = Object.assign({}, piled, {
    start() { return {depth: game.piles.map(() => 0), foundations: game.foundations.map((card) => [card])}; },
    legal(state) {
      const moves = [];
      tops(state).forEach((top) => state.foundations.forEach((stack, foundation) => {
        if (follows(last(stack), top)) moves.push([top, foundation]);
      }));
      return moves;
    },
    apply(state, move) {
      const foundations = state.foundations.slice();
      foundations[move[1]] = foundations[move[1]].concat([move[0]]);
      return {depth: taken(state, move[0]), foundations: foundations};
    },
    same: (first, second) => first[0] === second[0] && first[1] === second[1],
    label: (move) => `${cardName(move[0])}>${move[1] + 1}@${where[move[0]][0] + 1}`, // as answers write it
    explain: (state, move) => `${cardName(move[0])} from pile ${where[move[0]][0] + 1} onto `
      + `${cardName(last(state.foundations[move[1]]))} on foundation ${move[1] + 1}`,
    whyNot: (state, card) => covered(state, card) || `${cardName(card)} follows no foundation's top card `
      + `(${state.foundations.map((stack) => cardName(last(stack))).join(", ")})`,
  });

  // Late Binding Solitaire: a move (from, to) puts the pile at position `from` onto the one at `to`.
  const lbs = {
    start() { return {piles: game.row.map((card) => [card])}; },
    matches: (moved, covered) => game.values[moved] === game.values[covered] || game.suits[moved] === game.suits[covered],
    legal(state) {
      const moves = [];
      for (let source = state.piles.length; source > 1; source -= 1) {
        for (const step of game.steps) {
          const target = source - step;
          if (target >= 1 && this.matches(last(state.piles[source - 1]), last(state.piles[target - 1]))) {
            moves.push([source, target]);
          }
        }
      }
      return moves;
    },
    apply(state, move) {
      const piles = state.piles.slice();
      piles[move[1] - 1] = piles[move[1] - 1].concat(piles[move[0] - 1]);
      piles.splice(move[0] - 1, 1);
      return {piles: piles};
    },
    left: (state) => state.piles.length,
    won: (state) => state.piles.length === 1,
    same: (first, second) => first[0] === second[0] && first[1] === second[1],
    label: (move) => `${move[0]}\u2192${move[1]}`,
    explain: (state, move) => `${move[0]}\u2192${move[1]}, ${cardName(last(state.piles[move[0] - 1]))} onto `
      + cardName(last(state.piles[move[1] - 1])),
    wonText: () => "Won: one pile left.",
    stuckText: (state) => `Stuck: no legal move; ${state.piles.length} piles left.`,
  };

  // The layouts this script draws, and those a game's own script adds (`Game.page_script`, loaded before this
  // one): window.patienceLayouts[name] = (kit) => rules, the rules object as above plus `draw(state, legal)`
  // and, where a move is picked in two clicks, `picks`. A game's data names its layout (`layout`), else the
  // layout is read from its shape.
  const layouts = {blackHole: () => blackHole, binaryStar: () => binaryStar, lbs: () => lbs};
  Object.assign(layouts, window.patienceLayouts || {});
  const layout = game.layout || (game.game === "lbs" ? "lbs" : game.foundations ? "binaryStar" : "blackHole");
  let rules = null; // the chosen layout's, once every function it may use is defined (below)

  function stateAt(count) {
    let state = rules.start();
    for (let index = 0; index < count; index += 1) state = rules.apply(state, view.script[index]);
    return state;
  }

  // The answer's fault shows while the answer is followed to its last legal move.
  function faultShown() {
    return answer && answer.fault && !view.ownPlay && view.cursor === view.script.length;
  }

  // The move the answer (or your undone play) makes next, marked on the table.
  function nextMove() {
    return view.cursor < view.script.length ? view.script[view.cursor] : null;
  }

  function cardElement(card, classes) {
    const info = game.cards[card];
    const element = document.createElement("div");
    element.className = `card ${info.colour} ${classes}`.trim();
    element.dataset.card = info.name;
    element.title = info.name;
    element.innerHTML = `<span class="corner"><b></b><i></i></span><span class="pip"></span>`
      + `<span class="corner low"><b></b><i></i></span>`;
    element.querySelectorAll("b").forEach((node) => { node.textContent = info.rank; });
    element.querySelectorAll("i").forEach((node) => { node.textContent = info.suit; });
    element.querySelector(".pip").textContent = info.suit;
    return element;
  }

  // A card to click, or to reach with Tab and play with Enter.
  function clickable(element, action) {
    element.addEventListener("click", action);
    element.tabIndex = 0;
    element.setAttribute("role", "button");
    element.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      action();
    });
  }

  function slot(text) {
    const element = document.createElement("div");
    element.className = "card slot";
    element.textContent = text;
    return element;
  }

  // A foundation: its top card, the few cards played before it peeking out above (so each step up or down
  // shows), and a caption; `top` is the top card's element id.
  function foundationStack(cards, top, caption, classes) {
    const column = document.createElement("div");
    column.className = "foundation";
    const stack = document.createElement("div");
    stack.className = "foundation-stack";
    cards.slice(-1 - RECENT, -1).forEach((card) => stack.append(cardElement(card, "recent")));
    const topCard = cards.length ? cardElement(last(cards), `foundation-card ${classes}`) : slot("any card");
    topCard.id = top;
    topCard.classList.add("top");
    stack.append(topCard);
    const label = document.createElement("div");
    label.className = "caption";
    label.innerHTML = caption;
    column.append(label, stack);
    return column;
  }

  // The piles, bottom card first and the top card drawn last; `classes(card)` marks a card.
  function drawPiles(state, classes) {
    const piles = byId("piles");
    piles.replaceChildren();
    const tallest = Math.max(...game.piles.map((pile) => pile.length));
    game.piles.forEach((pile, index) => {
      const column = document.createElement("div");
      column.className = "pile";
      column.dataset.pile = index + 1;
      column.style.minHeight = `calc(var(--card-height) + ${tallest - 1} * var(--fan))`;
      const remaining = pile.slice(state.depth[index]).reverse();
      if (!remaining.length) column.append(slot(""));
      remaining.forEach((card) => {
        const element = cardElement(card, classes(card));
        clickable(element, () => clickCard(card));
        column.append(element);
      });
      piles.append(column);
    });
  }

  const playedText = (count) => `${count} of ${pileCards} played`;

  function drawBlackHole(state, legal) {
    const played = state.foundation.length - (game.foundation === null ? 0 : 1);
    byId("foundation-area").replaceChildren(
      foundationStack(state.foundation, "foundation", `foundation<br>${playedText(played)}`, ""));
    const illegal = faultShown() ? answer.fault.card : null;
    drawPiles(state, (card) => [legal.includes(card) ? "legal" : "", card === illegal ? "illegal" : "",
      card === nextMove() ? "next" : ""].join(" "));
  }

  function drawBinaryStar(state, legal) {
    const fault = faultShown() ? answer.fault : {};
    const next = nextMove() || [];
    const targets = legal.filter((move) => move[0] === view.selected).map((move) => move[1]);
    const area = byId("foundation-area");
    area.replaceChildren(...state.foundations.map((cards, index) => {
      const classes = [targets.includes(index) ? "target" : "", next[1] === index ? "next" : "",
        fault.foundation === index ? "illegal" : ""].join(" ");
      const column = foundationStack(cards, `foundation-${index + 1}`,
        `foundation ${index + 1}<br>${cards.length - 1} played`, classes);
      column.dataset.foundation = index + 1;
      clickable(column.querySelector(".foundation-card"), () => clickFoundation(index));
      return column;
    }));
    const played = pileCards - left(state);
    const caption = document.createElement("div");
    caption.className = "caption";
    caption.textContent = playedText(played);
    area.append(caption);
    drawPiles(state, (card) => [legal.some((move) => move[0] === card) ? "legal" : "",
      view.selected === card ? "selected" : "", card === fault.card ? "illegal" : "",
      card === next[0] ? "next" : ""].join(" "));
  }

  function drawLbs(state, legal) {
    byId("foundation-area").replaceChildren();
    const fault = faultShown() ? answer.fault : null;
    const sources = new Set(legal.map((move) => move[0]));
    const targets = new Set(legal.filter((move) => move[0] === view.selected).map((move) => move[1]));
    const piles = byId("piles");
    piles.replaceChildren();
    state.piles.forEach((pile, index) => {
      const position = index + 1;
      const column = document.createElement("div");
      column.className = "pile lbs-pile" + (pile.length > 1 ? " stacked" : "");
      column.dataset.pile = position;
      const heading = document.createElement("div");
      heading.className = "position";
      heading.textContent = position;
      const classes = [sources.has(position) ? "legal" : "", view.selected === position ? "selected" : "",
        targets.has(position) ? "target" : "", nextMove() && nextMove()[0] === position ? "next" : "",
        fault && (fault.from === position || fault.to === position) ? "illegal" : ""].join(" ");
      const element = cardElement(last(pile), classes);
      clickable(element, () => clickPile(position, legal));
      const depth = document.createElement("div");
      depth.className = "depth";
      depth.textContent = pile.length > 1 ? `${pile.length} cards` : "";
      column.append(heading, element, depth);
      piles.append(column);
    });
  }

  blackHole.draw = drawBlackHole;
  Object.assign(binaryStar, {draw: drawBinaryStar, picks: true});
  Object.assign(lbs, {draw: drawLbs, moveWord: "move"});
  // what a game's own layout may use to play and draw its cards
  const kit = {game, answer, view, layouts, byId, cardName, last, follows, tops, taken, left, covered, piled,
    cardElement, clickable, slot, foundationStack, drawPiles, playedText, faultShown, nextMove, clickCard, play, draw};
  if (!layouts[layout]) throw new Error(`the page has no layout ${layout}`);
  rules = layouts[layout](kit);

  // The validator found these moves legal; the page's own rules must agree (a console error if not).
  (function checkAnswer() {
    let state = rules.start();
    original.forEach((move, index) => {
      if (!rules.legal(state).some((legal) => rules.same(legal, move))) {
        console.error(`the page's rules reject move ${index + 1} (${rules.label(move)}), which the validator accepted`);
      }
      state = rules.apply(state, move);
    });
    if (answer && !answer.fault && !rules.won(state)) console.error("the page's rules do not see the answer win");
  })();

  function drawMoves() {
    const list = byId("moves");
    list.replaceChildren();
    view.script.forEach((move, index) => {
      const item = document.createElement("li");
      item.textContent = rules.label(move);
      item.dataset.move = index + 1;
      if (index === view.cursor - 1) item.className = "current";
      else if (index >= view.cursor) item.className = "future";
      item.addEventListener("click", () => go(index + 1));
      list.append(item);
    });
    if (answer && answer.fault && answer.fault.move && !view.ownPlay) {
      const item = document.createElement("li");
      item.className = "illegal-move";
      item.textContent = `${answer.fault.name} \u2717`;
      item.dataset.move = answer.fault.move;
      item.title = answer.fault.text;
      item.addEventListener("click", () => go(view.script.length));
      list.append(item);
    }
    const current = list.querySelector(".current");
    if (current) current.scrollIntoView({block: "nearest", inline: "nearest"});
  }

  function statusText(state, legal) {
    if (faultShown() && answer.fault.move) {
      return `Stopped after ${view.cursor} legal move${view.cursor === 1 ? "" : "s"}: move ${answer.fault.move} `
        + `(${answer.fault.name}) is illegal.`;
    }
    if (rules.won(state)) return rules.wonText(state);
    if (!legal.length) return rules.stuckText(state);
    const position = view.cursor === 0 ? "Start"
      : `Move ${view.cursor}: ${rules.explain(stateAt(view.cursor - 1), view.script[view.cursor - 1])}`;
    const plays = legal.map(rules.label).join(", ");
    const word = rules.moveWord || "play";
    return `${position}. ${legal.length} legal ${word}${legal.length === 1 ? "" : "s"}: ${plays}.`;
  }

  function draw() {
    const state = stateAt(view.cursor);
    const legal = rules.legal(state);
    rules.draw(state, legal);
    drawMoves();
    const status = byId("status");
    status.textContent = view.message || statusText(state, legal);
    status.className = rules.won(state) ? "won" : legal.length ? "" : "stuck";
    document.body.classList.toggle("won", rules.won(state));
    view.message = "";
    const fault = byId("fault");
    fault.hidden = !faultShown();
    fault.textContent = faultShown() ? answer.fault.text : "";
    const slider = byId("slider");
    slider.max = view.script.length;
    slider.value = view.cursor;
    const total = view.script.length;
    byId("counter").textContent = `${view.cursor} / ${total}` + (view.ownPlay ? " (your play)" : "");
    byId("back").disabled = byId("start").disabled = byId("undo").disabled = view.cursor === 0;
    byId("forward").disabled = byId("end").disabled = view.cursor === total;
    byId("play").textContent = view.timer ? "Pause" : "Play";
    byId("play").disabled = !view.timer && view.cursor === total;
  }

  function go(count) {
    view.cursor = Math.max(0, Math.min(view.script.length, count));
    view.selected = null;
    if (view.timer && view.cursor === view.script.length) pause();
    draw();
  }

  function play(move) {
    if (view.cursor < view.script.length && rules.same(view.script[view.cursor], move)) {
      go(view.cursor + 1);
      return;
    }
    view.script = view.script.slice(0, view.cursor).concat([move]);
    view.ownPlay = true;
    go(view.cursor + 1);
  }

  function clickCard(card) {
    const state = stateAt(view.cursor);
    const legal = rules.legal(state);
    if (rules.picks) {
      // a card can go onto more than one foundation: pick it, then click the foundation
      if (legal.some((move) => move[0] === card)) {
        view.selected = view.selected === card ? null : card;
        if (view.selected !== null) {
          view.message = `${cardName(card)} picked: click a highlighted foundation to put it on.`;
        }
        draw();
        return;
      }
    } else if (legal.includes(card)) {
      play(card);
      return;
    }
    view.selected = null;
    view.message = `${rules.whyNot(state, card)}: nothing moves.`;
    draw();
  }

  function clickFoundation(foundation) {
    const state = stateAt(view.cursor);
    const move = [view.selected, foundation];
    if (view.selected !== null && rules.legal(state).some((legal) => rules.same(legal, move))) {
      play(move);
      return;
    }
    view.message = view.selected === null ? "Pick a highlighted card first: nothing moves."
      : `${cardName(view.selected)} does not follow ${cardName(last(state.foundations[foundation]))} `
        + `on foundation ${foundation + 1}: nothing moves.`;
    draw();
  }

  function clickPile(position, legal) {
    if (view.selected !== null && legal.some((move) => move[0] === view.selected && move[1] === position)) {
      const move = [view.selected, position];
      view.selected = null;
      play(move);
      return;
    }
    if (legal.some((move) => move[0] === position)) {
      view.selected = view.selected === position ? null : position;
      if (view.selected !== null) view.message = `Pile ${position} picked: click a highlighted pile to put it on.`;
    } else {
      view.selected = null;
      view.message = `The pile at ${position} has no legal move: nothing moves.`;
    }
    draw();
  }

  function pause() {
    clearInterval(view.timer);
    view.timer = null;
  }

  function toggle() {
    if (view.timer) {
      pause();
    } else if (view.cursor < view.script.length) {
      view.timer = setInterval(() => go(view.cursor + 1), Number(byId("speed").value));
    }
    draw();
  }

  function undo() {
    if (view.cursor === 0) return;
    view.script = view.script.slice(0, view.cursor - 1);
    view.ownPlay = true;
    go(view.cursor - 1);
  }

  function restart() {
    pause();
    view.script = original.slice();
    view.ownPlay = false;
    go(0);
  }

  byId("start").addEventListener("click", () => go(0));
  byId("back").addEventListener("click", () => go(view.cursor - 1));
  byId("forward").addEventListener("click", () => go(view.cursor + 1));
  byId("end").addEventListener("click", () => go(view.script.length));
  byId("play").addEventListener("click", toggle);
  byId("undo").addEventListener("click", undo);
  byId("restart").addEventListener("click", restart);
  byId("slider").addEventListener("input", (event) => go(Number(event.target.value)));
  byId("speed").addEventListener("change", () => { if (view.timer) { pause(); toggle(); } });
  document.addEventListener("keydown", (event) => {
    if (["INPUT", "SELECT"].includes(event.target.tagName)) return;
    const actions = {ArrowRight: () => go(view.cursor + 1), ArrowLeft: () => go(view.cursor - 1), " ": toggle,
      Home: () => go(0), End: () => go(view.script.length), Backspace: undo};
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
  draw();
})();
