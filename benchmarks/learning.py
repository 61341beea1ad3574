"""The search that learns (issue 55 item 1), measured: the default route's search of a generalised deal
(both directions a round at a time, every rule on, the default 128 MiB cache) with `_search.learning`
off and on, on held-out deals of the shapes docs/hardness.md leaves under 99% decided at 60 s of CPU.

    sample: per shape the first `--per-shape` seeds from `--first` on (past the grid's 1..100, so held
            out) that the search without learning leaves open at `--open` nodes, as docs/hardness.md
            samples the hard shapes (the deals 1,000,000 nodes leave open)
    run:    each sampled deal at `--nodes` nodes or `--cpu` CPU seconds, learning off and on
    small:  nodes and CPU on random small deals, learning off and on (no folder)

One JSON line a search under `--out` (a rerun skips what is there, so a run stopped at any time resumes);
every win is replayed by the validator before it is counted, and a deal won with one setting and lost
with the other is reported as an error (exit 1). The CPU is this process's (the search runs in it).

    nice -n 19 .venv/bin/python benchmarks/learning.py sample --out /tmp/learning --per-shape 4
    nice -n 19 .venv/bin/python benchmarks/learning.py run --out /tmp/learning --nodes 4000000
    nice -n 19 .venv/bin/python benchmarks/learning.py run --out /tmp/learning --nodes 4000000 --rules reach=off
    nice -n 19 .venv/bin/python benchmarks/learning.py run --out /tmp/learning --cpu 60
    .venv/bin/python benchmarks/learning.py table --out /tmp/learning
    nice -n 19 .venv/bin/python benchmarks/learning.py small --deals 300
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from patience.api import random_deal, validate
from patience.native import _search, engine
from patience.native.board import Board
from patience.native.rules import Rules

SHAPES = ((26, 8, 5), (26, 8, 6), (52, 4, 3), (52, 8, 5), (52, 8, 4), (100, 4, 2), (100, 8, 4), (52, 16, 6),
          (100, 8, 3))


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def append(path: Path, record: dict) -> None:
    """One line added in one write, flushed at once: a stopped run loses at most the search under way."""
    with open(path, "a") as out:
        out.write(json.dumps(record) + "\n")
        out.flush()


def rules_of(text: str) -> Rules:
    """`reach=off,wide=off` as Rules (the defaults for the others); '' the defaults."""
    switches = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in Rules.names() or value not in ("on", "off"):
            raise SystemExit(f"error: --rules {text}: expected NAME=on|off with NAME one of {', '.join(Rules.names())}")
        switches[name] = value == "on"
    return Rules.of({**{name: getattr(Rules(), name) for name in Rules.names()}, **switches})


def search(shape: tuple[int, int, int], seed: int, learn: bool, nodes: int | None, cpu: float | None,
           rules: str = "") -> dict:
    """The compiled search's both directions (engine.run_both's call, made here directly so that a source
    edited by someone else since the build does not send it to the Python search), its win replayed."""
    deal = random_deal(*shape, seed=seed)
    front, back = Board.of(deal), Board.reversed_of(deal)
    _search.learning(learn)
    started, load = time.process_time(), os.getloadavg()[0]
    try:
        status, which, order, _, front_nodes, back_nodes = _search.both(
            front.rank, front.pile_size, back.rank, back.pile_size, front.ranks, front.foundations, back.foundations,
            back.end, *rules_of(rules).switches(), nodes or 0, 0.0, cpu or 0.0, engine.cache_bytes(None))
    finally:
        added, cuts, whole = _search.learning(False)
    cpu_s = time.process_time() - started
    replayed = None
    if status == "solved" and order is not None:
        play = [(front, back)[which].cards[card] for card in order]
        replayed = bool(validate(deal, [str(card) for card in (play[::-1] if which else play)]))
        if not replayed:
            raise SystemExit(f"error: {shape} seed {seed}: a win that does not replay")
    return {"shape": "x".join(map(str, shape)), "seed": seed, "learn": learn, "rules": rules, "nodes_limit": nodes,
            "cpu_limit": cpu, "status": {"limit": "unknown", "cpu": "unknown"}.get(status, status),
            "direction": ("forward", "backward")[which], "nodes": front_nodes + back_nodes, "cpu_s": round(cpu_s, 2),
            "learned": added, "learned_cuts": cuts, "whole_failures": whole, "replayed": replayed,
            "load": round(load, 1), "forward_nodes": front_nodes, "backward_nodes": back_nodes}


def sample(args: argparse.Namespace) -> int:
    path = args.out / "sample.jsonl"
    done = {(r["shape"], r["seed"]): r for r in lines(path)}
    for shape in SHAPES:
        name = "x".join(map(str, shape))
        seed = args.first
        while sum(1 for (s, _), r in done.items() if s == name and r["status"] not in ("solved", "unsolvable")) \
                < args.per_shape:
            if (name, seed) not in done:
                record = search(shape, seed, False, args.open, None)
                append(path, record)
                done[(name, seed)] = record
                print(f"{name} seed {seed}: {record['status']} {record['nodes']:,} nodes {record['cpu_s']} s",
                      flush=True)
            seed += 1
    return 0


def run(args: argparse.Namespace) -> int:
    picked = [r for r in lines(args.out / "sample.jsonl") if r["status"] not in ("solved", "unsolvable")]
    path = args.out / "runs.jsonl"
    done = {(r["shape"], r["seed"], r["learn"], r["rules"], r["nodes_limit"], r["cpu_limit"]) for r in lines(path)}
    only = set(args.only.split(",")) if args.only else None
    taken: dict[str, int] = {}
    for record in picked:
        if only and record["shape"] not in only or taken.get(record["shape"], 0) >= args.per_shape:
            continue
        taken[record["shape"]] = taken.get(record["shape"], 0) + 1
        for learn in (False, True):
            key = (record["shape"], record["seed"], learn, args.rules, args.nodes, args.cpu)
            if key in done:
                continue
            ranks, suits, height = (int(n) for n in record["shape"].split("x"))
            found = search((ranks, suits, height), record["seed"], learn, args.nodes, args.cpu, args.rules)
            append(path, found)
            print(f"{found['shape']} seed {found['seed']} rules {args.rules or 'default'} learn={learn}: "
                  f"{found['status']} {found['nodes']:,} nodes "
                  f"{found['cpu_s']} s learned {found['learned']:,} cuts {found['learned_cuts']:,} "
                  f"whole {found['whole_failures']:,}", flush=True)
    return table(args)


def table(args: argparse.Namespace) -> int:
    rows = lines(args.out / "runs.jsonl")
    budgets = sorted({(r["rules"], r["nodes_limit"] or 0, r["cpu_limit"] or 0) for r in rows})
    clash = 0
    for rules, nodes, cpu in budgets:
        print(f"\nrules {rules or 'default'}, budget: {f'{nodes:,} nodes' if nodes else f'{cpu:g} s of CPU'}")
        print("| shape | deals | decided, learning off | decided, on | nodes off | nodes on | CPU s off | CPU s on "
              "| learned failures | learned cuts | whole-state failures |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        mine = [r for r in rows if (r["rules"], r["nodes_limit"] or 0, r["cpu_limit"] or 0) == (rules, nodes, cpu)]
        for shape in ["x".join(map(str, s)) for s in SHAPES]:
            off = {r["seed"]: r for r in mine if r["shape"] == shape and not r["learn"]}
            on = {r["seed"]: r for r in mine if r["shape"] == shape and r["learn"]}
            seeds = sorted(set(off) & set(on))
            if not seeds:
                continue
            for seed in seeds:
                verdicts = {off[seed]["status"], on[seed]["status"]}
                if {"solved", "unsolvable"} <= verdicts:
                    clash += 1
                    print(f"error: {shape} seed {seed}: {off[seed]['status']} without learning, "
                          f"{on[seed]['status']} with it")
            decided = [sum(1 for s in seeds if side[s]["status"] in ("solved", "unsolvable")) for side in (off, on)]
            total = [sum(side[s][key] for s in seeds) for side in (off, on) for key in ("nodes", "cpu_s")]
            learned = [sum(on[s][key] for s in seeds) for key in ("learned", "learned_cuts", "whole_failures")]
            print(f"| {shape} | {len(seeds)} | {decided[0]} | {decided[1]} | {total[0]:,} | {total[2]:,} | "
                  f"{total[1]:.1f} | {total[3]:.1f} | {learned[0]:,} | {learned[1]:,} | {learned[2]:,} |")
    return 1 if clash else 0


def small(args: argparse.Namespace) -> int:
    """Nodes and CPU with learning off and on, on random deals of 7 to 13 ranks (at most 30 cards, drawn as
    tests/test_learning.py draws them), from the front and from the back, under three sets of rules."""
    import random

    rng = random.Random(args.seed)
    boards = []
    for _ in range(args.deals):
        ranks = rng.choice((7, 8, 9, 10, 13))
        suits = rng.choice((2, 3, 4)) if ranks <= 10 else 2
        deal = random_deal(ranks, suits, rng.choice((2, 3, 4, 5)), rng.randrange(10**6))
        boards += [Board.of(deal), Board.reversed_of(deal)]
    print("| rules | learning | boards decided | nodes | CPU s | learned failures | learned cuts |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in ("", "reach=off", "reach=off,symmetry=off,wolter=off"):
        verdicts = []
        for learn in (False, True):
            nodes, found, started = 0, [], time.process_time()
            _search.learning(learn)
            for board in boards:
                answer = _search.search(board.rank, board.pile_size, board.ranks, board.foundations,
                                        *rules_of(name).switches(), False, 2_000_000, 0.0, 0.0, 1 << 22, board.end)
                nodes += answer[3]
                found.append(answer[0])
            added, cuts, _ = _search.learning(False)
            verdicts.append(found)
            decided = sum(1 for verdict in found if verdict in ("solved", "unsolvable"))
            print(f"| {name or 'default'} | {'on' if learn else 'off'} | {decided} | {nodes:,} | "
                  f"{time.process_time() - started:.2f} | {added:,} | {cuts:,} |")
        clashes = sum(1 for a, b in zip(*verdicts, strict=True) if {a, b} == {"solved", "unsolvable"})
        if clashes:
            print(f"error: {clashes} boards won with one setting and lost with the other")
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("sample", "run", "table", "small"))
    parser.add_argument("--out", type=Path, default=Path("learning"), help="folder of sample.jsonl and runs.jsonl")
    parser.add_argument("--deals", type=int, default=300, help="small: random small deals (300)")
    parser.add_argument("--seed", type=int, default=77, help="small: their stream's seed (77)")
    parser.add_argument("--per-shape", type=int, default=4,
                        help="sample: open deals a shape; run: the first this many sampled of each (4)")
    parser.add_argument("--first", type=int, default=101, help="sample: the first seed (101, past the grid's)")
    parser.add_argument("--open", type=int, default=1_000_000, help="sample: open at this many nodes (1,000,000)")
    parser.add_argument("--nodes", type=int, help="run: nodes a search")
    parser.add_argument("--cpu", type=float, help="run: CPU seconds a search")
    parser.add_argument("--only", help="run: only these shapes, RxSxH,...")
    parser.add_argument("--rules", default="", help="run: the search's rules changed, NAME=on|off,... (none)")
    args = parser.parse_args(argv)
    if args.action == "run" and not (args.nodes or args.cpu):
        parser.error("run needs --nodes or --cpu")
    args.out.mkdir(parents=True, exist_ok=True)
    return {"sample": sample, "run": run, "table": table, "small": small}[args.action](args)


if __name__ == "__main__":
    sys.exit(main())
