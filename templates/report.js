"use strict";
// The report page: click a column head to sort its table; hover a plot's point for its deal and time.
(function () {
  document.querySelectorAll("table.sortable").forEach((table) => {
    table.querySelectorAll("th").forEach((head, column) => {
      head.addEventListener("click", () => {
        const ascending = head.dataset.order !== "ascending";
        table.querySelectorAll("th").forEach((other) => { delete other.dataset.order; });
        head.dataset.order = ascending ? "ascending" : "descending";
        const numeric = head.classList.contains("number");
        const key = (row) => row.children[column].dataset.key;
        const compare = numeric
          ? (first, second) => parseFloat(key(first) === "inf" ? "Infinity" : key(first))
            - parseFloat(key(second) === "inf" ? "Infinity" : key(second))
          : (first, second) => key(first).localeCompare(key(second), undefined, {numeric: true});
        const body = table.tBodies[0];
        const rows = Array.from(body.rows).sort((first, second) => (ascending ? 1 : -1) * compare(first, second));
        body.append(...rows);
      });
    });
  });
  const tip = document.getElementById("tip");
  document.addEventListener("mouseover", (event) => {
    const point = event.target.closest(".point");
    tip.hidden = !point;
    if (!point) return;
    tip.textContent = point.dataset.tip;
    tip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8)}px`;
    tip.style.top = `${event.clientY + 14}px`;
  });
})();
