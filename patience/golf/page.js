"use strict";
// Golf's layout on the replay page (its data: patience/golf/game.py page_data): the piles, a stock dealt in
// order onto the one foundation, and the variant's rule. A move is the card put onto the foundation: a pile's
// top card whose rank follows the foundation's, or the stock's next card, whatever its rank; won when the
// piles are empty (the stock may still hold cards).
window.patienceLayouts = Object.assign(window.patienceLayouts || {}, {golf: (kit) => {
  const {game, cardName, last, tops, taken, covered, piled, cardElement, clickable, slot, foundationStack,
    drawPiles, playedText, faultShown, nextMove, clickCard} = kit;
  const king = game.ranks - 1;
  const stockPlace = {}; // stock card -> its place in the dealing order
  game.stock.forEach((card, index) => { stockPlace[card] = index; });
  const inStock = (card) => stockPlace[card] !== undefined;
  // GolfDeal.rank_follows: nothing on a king unless queens go on kings; one rank apart, K and A too if ranks wrap
  function follows(base, card) {
    const [low, high] = [game.values[base], game.values[card]];
    if (low === king && !game.queens_on_kings) return false;
    if (!game.wrap_ranks) return Math.abs(low - high) === 1;
    const difference = (((low - high) % game.ranks) + game.ranks) % game.ranks;
    return game.ranks > 1 && (difference === 1 || difference === game.ranks - 1);
  }
  const base = (state) => last(state.foundation);
  return Object.assign({}, piled, {
    start: () => ({depth: game.piles.map(() => 0), foundation: [game.foundation], dealt: 0}),
    legal(state) {
      const moves = tops(state).filter((top) => follows(base(state), top));
      if (state.dealt < game.stock.length) moves.push(game.stock[state.dealt]);
      return moves;
    },
    apply: (state, card) => ({depth: inStock(card) ? state.depth : taken(state, card),
      foundation: state.foundation.concat([card]), dealt: state.dealt + (inStock(card) ? 1 : 0)}),
    same: (first, second) => first === second,
    label: (move) => cardName(move),
    explain: (state, move) => (inStock(move) ? `deal ${cardName(move)}` : cardName(move)),
    whyNot(state, card) {
      if (inStock(card)) {
        return stockPlace[card] < state.dealt ? `${cardName(card)} was already dealt from the stock`
          : `${cardName(card)} is not the stock's next card`;
      }
      if (covered(state, card)) return covered(state, card);
      if (game.values[base(state)] === king && !game.queens_on_kings) {
        return `${cardName(card)} cannot go on ${cardName(base(state))}: nothing goes on a king`;
      }
      return `${cardName(card)} does not follow ${cardName(base(state))}`;
    },
    draw(state, legal) {
      const played = state.foundation.length - 1 - state.dealt;
      const illegal = faultShown() ? kit.answer.fault.card : null;
      const left = game.stock.length - state.dealt;
      const stock = document.createElement("div");
      stock.className = "foundation stock";
      const caption = document.createElement("div");
      caption.className = "caption";
      caption.innerHTML = `stock<br>${left} left`;
      const next = left ? cardElement(game.stock[state.dealt], ["stock-card legal",
        nextMove() === game.stock[state.dealt] ? "next" : ""].join(" ")) : slot("empty");
      if (left) clickable(next, () => clickCard(game.stock[state.dealt]));
      stock.append(caption, next);
      kit.byId("foundation-area").replaceChildren(stock,
        foundationStack(state.foundation, "foundation", `foundation<br>${playedText(played)}`, ""));
      drawPiles(state, (card) => [legal.includes(card) ? "legal" : "", card === illegal ? "illegal" : "",
        card === nextMove() ? "next" : ""].join(" "));
    },
  });
}});
