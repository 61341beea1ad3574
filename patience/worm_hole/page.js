"use strict";
// Worm Hole's layout on the replay page (its data: patience/worm_hole/page.py): Black Hole's piles and
// foundation, and the cells. A move is [card, park]: park 0 puts the card onto the foundation (from its pile's
// top or a cell: one rank apart, the cycle wrapping), park 1 puts a pile's top card into an empty cell. A card
// is picked with one click, then put onto the foundation or into a cell with a second.
window.patienceLayouts = Object.assign(window.patienceLayouts || {}, {wormHole: (kit) => {
  const {game, view, cardName, last, follows, tops, taken, covered, cardElement, clickable, slot,
    foundationStack, drawPiles, playedText, faultShown, nextMove, clickCard, play, draw} = kit;
  const pileCards = game.piles.reduce((sum, pile) => sum + pile.length, 0);
  const hole = (state) => (state.foundation.length ? last(state.foundation) : null);
  const fits = (state, card) => hole(state) === null || follows(hole(state), card);
  const played = (state) => state.foundation.length - (game.foundation === null ? 0 : 1);
  const stateNow = () => view.script.slice(0, view.cursor).reduce((state, move) => rules.apply(state, move),
    rules.start());
  function put(park) { // the second click: the picked card onto the foundation (0) or into a cell (1)
    const move = [view.selected, park];
    const state = stateNow();
    view.selected = null;
    if (move[0] !== null && rules.legal(state).some((legal) => rules.same(legal, move))) {
      play(move);
      return;
    }
    draw();
  }
  const rules = {
    picks: true,
    start: () => ({depth: game.piles.map(() => 0), foundation: game.foundation === null ? [] : [game.foundation],
      cells: []}),
    legal(state) {
      const moves = state.cells.filter((card) => fits(state, card)).map((card) => [card, 0]);
      tops(state).forEach((top) => {
        if (fits(state, top)) moves.push([top, 0]);
        if (state.cells.length < game.cells) moves.push([top, 1]);
      });
      return moves;
    },
    apply(state, move) {
      const [card, park] = move;
      const inCell = state.cells.includes(card);
      const depth = inCell ? state.depth : taken(state, card);
      if (park) return {depth: depth, foundation: state.foundation, cells: state.cells.concat([card])};
      return {depth: depth, foundation: state.foundation.concat([card]), cells: state.cells.filter((other) => other !== card)};
    },
    same: (first, second) => first[0] === second[0] && first[1] === second[1],
    label: (move) => cardName(move[0]) + (move[1] ? " cell" : ""), // as answers write it
    explain: (state, move) => (move[1] ? `${cardName(move[0])} into a cell`
      : `${cardName(move[0])}${state.cells.includes(move[0]) ? " from its cell" : ""}`),
    whyNot: (state, card) => covered(state, card) || (state.cells.length >= game.cells
      ? `${cardName(card)} does not follow ${cardName(hole(state))} and no cell is empty`
      : `${cardName(card)} does not follow ${cardName(hole(state))}`),
    won: (state) => played(state) === pileCards,
    wonText: () => `Won: all ${pileCards} cards played.`,
    stuckText(state) {
      const count = pileCards - played(state);
      return `Stuck: no legal move; ${count} card${count === 1 ? "" : "s"} left.`;
    },
    moveWord: "move",
    draw(state, legal) {
      const next = nextMove() || [];
      const illegal = faultShown() ? kit.answer.fault.card : null;
      const picked = legal.filter((move) => move[0] === view.selected);
      const foundation = foundationStack(state.foundation, "foundation", `foundation<br>${playedText(played(state))}`,
        picked.some((move) => !move[1]) ? "target" : "");
      clickable(foundation.querySelector(".top"), () => put(0));
      const cells = document.createElement("div");
      cells.className = "foundation cells";
      for (let index = 0; index < game.cells; index += 1) {
        const card = state.cells[index];
        const element = card === undefined ? slot("cell") : cardElement(card, [
          legal.some((move) => move[0] === card) ? "legal" : "", view.selected === card ? "selected" : "",
          card === illegal ? "illegal" : "", card === next[0] ? "next" : ""].join(" "));
        if (card === undefined) {
          if (picked.some((move) => move[1])) element.classList.add("target");
          clickable(element, () => put(1));
        } else {
          clickable(element, () => clickCard(card));
        }
        cells.append(element);
      }
      const caption = document.createElement("div");
      caption.className = "caption";
      caption.textContent = `${game.cells} cell${game.cells === 1 ? "" : "s"}`;
      cells.append(caption);
      kit.byId("foundation-area").replaceChildren(foundation, cells);
      drawPiles(state, (card) => [legal.some((move) => move[0] === card) ? "legal" : "",
        view.selected === card ? "selected" : "", card === illegal ? "illegal" : "",
        card === next[0] ? "next" : ""].join(" "));
    },
  };
  return rules;
}});
