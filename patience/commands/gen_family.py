"""`patience gen FORMAT --deals SPEC -o DIR`: a benchmark family in one model language.

Everything that can be refused is checked before any search or file: the deal spec, the options
(against every game the spec brings), the selection, the measure's store and the output folder.
Then the native search labels every deal (its validated verdict, nodes and most cards removable),
`--status` and `--select` choose, and the chosen deals are written by their language's convention
into a private folder that replaces DIR only once the index is written (docs/families.md)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from patience.caps import MAX_SEED
from patience.errors import UsageError, quote
from patience.exit_codes import ExitCode
from patience.families import labels, select
from patience.families.conventions import convention
from patience.families.write import Job, Target, share_files, write_deal, write_family, write_index
from patience.generators import generator
from patience.limits import jobs, seconds
from patience.numeric import whole_argument
from patience.options import check_options
from patience.outputs import check_apart
from patience.runs import specs
from patience.runs.pool import runner
from patience.runs.progress import Progress
from patience.syntax import identifier

DEFAULT_LABEL_SECONDS = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The family flags of `gen FORMAT`."""
    family = parser.add_argument_group("families (with --deals; docs/families.md)")
    family.add_argument("--deals", metavar="SPEC", help=f"write a family of these deals into -o DIR: {specs.SPEC_HELP}")
    family.add_argument("--jobs", type=jobs, default=1, help="worker processes (default 1; never more than deals)")
    family.add_argument("--label-timeout", type=seconds, default=DEFAULT_LABEL_SECONDS,
                        help=f"native search limit per deal in seconds (default {DEFAULT_LABEL_SECONDS:g})")
    family.add_argument("--status", choices=tuple(select.STATUSES), default="any",
                        help="keep only the deals of this native verdict: solved or unsolvable (solvable, the older "
                             "spelling, is solved; default any)")
    family.add_argument("--select", metavar="hardest:N|easiest:N|sample:N",
                        help="write only N deals: the hardest or easiest by the measure, or a seeded sample")
    family.add_argument("--measure", metavar="STORE:SOLVER",
                        help="rank by this configuration's wall time in a campaign store (default: native nodes)")
    family.add_argument("--seed", type=whole_argument(0, MAX_SEED),
                        default=0, help="seed of --select sample:N (default 0)")
    family.add_argument("--force", action="store_true", help="replace a non-empty DIR")
    family.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, given: Mapping[str, object]) -> int:
    language = args.format
    if args.deal is not None or args.game is not None:
        raise UsageError(f"gen {language} --deals takes no DEAL or --game: the spec names the deals")
    if args.output_dir is None:
        raise UsageError(f"gen {language} --deals needs -o DIR")
    shown = [flag for flag, value in given.items() if value is True]
    if shown:
        raise UsageError(f"--{shown[0]} prints one file; a family writes them all")
    selection = None if args.select is None else select.parse_selection(args.select)
    if args.measure is not None and selection is None:
        raise UsageError("--measure ranks deals for --select; give --select hardest:N or easiest:N")
    check_apart(args.output_dir, input_paths(args.deals, args.measure))  # before suggesting --force
    target = Target(args.output_dir, args.force)
    refused = target.check()
    if refused:
        raise UsageError(refused)
    deals = specs.resolve(args.deals)
    options = _typed_options(language, deals, {name: value for name, value in given.items() if isinstance(value, str)})
    measure = None if args.measure is None else labels.store_times(args.measure, [item.name for item in deals])

    found = _label_all(deals, args.label_timeout, args.jobs, args.quiet)
    ranking = measure if measure is not None else labels.native_nodes(found)
    chosen = select.choose(found, ranking, selection, args.status, args.seed)
    if not chosen:
        raise UsageError(f"no deal of {args.deals} is {args.status} within {args.label_timeout:g} s")
    if selection is not None and selection.count > len(chosen):
        print(f"note: only {len(chosen)} deals to choose from; writing them all", file=sys.stderr)
    about = {"format": language, "convention": convention(language).competition, "deals": args.deals,
             "options": {key: options[key] for key in sorted(options)}, "status": args.status,
             "select": args.select, "measure": args.measure or "native nodes", "seed": args.seed,
             "labels": {"solver": "native", "max-cards": "on", "timeout": args.label_timeout},
             "family_size": len(deals), "chosen": len(chosen)}
    width = max(3, len(str(len(chosen))))
    stems = _stems([deals[index] for index in chosen])
    family = f"patience-models gen {language} --deals {args.deals}"

    def fill(folder: Path) -> None:
        jobs = [Job(number, width, stem, deals[index], found[index], None if measure is None else measure[index],
                    language, options[deals[index].game.name], str(folder), family)
                for number, (index, stem) in enumerate(zip(chosen, stems, strict=True), 1)]
        written = sorted(_run(write_deal, jobs, args.jobs, "written", args.quiet), key=lambda item: item.row["number"])
        shared = share_files(folder, written)
        write_index(folder, [item.row for item in written], {**about, "shared_files": shared})

    write_family(target, fill)
    decided = Counter(found[index].status for index in chosen)
    print(f"{args.output_dir}: {len(chosen)} {language} instances of {len(deals)} deals "
          f"({', '.join(f'{count} {status}' for status, count in sorted(decided.items()))}), index.csv, index.json")
    return ExitCode.SOLVED


def input_paths(spec: str, measure: str | None) -> list[str]:
    """The files and folders a family reads: those its spec names, and the --measure store."""
    named = [part.strip() for part in spec.split("+")] + ([measure.rpartition(":")[0]] if measure else [])
    return [name for name in named if name and Path(name).exists()]


def _typed_options(language: str, deals: Sequence[specs.NamedDeal], given: Mapping[str, str]) -> dict[str, Any]:
    """Each game's generator options, typed; an option no game of the family has is refused."""
    typed: dict[str, Any] = {}
    declared: set[str] = set()
    for game in dict.fromkeys(item.game.name for item in deals):
        module = generator(language, game)
        own = {option.name for option in module.OPTIONS}
        declared |= own
        typed[game] = check_options(module.OPTIONS, {key: value for key, value in given.items() if key in own},
                                    f"gen {language} ({game})")
    unknown = sorted(set(given) - declared)
    if unknown:
        raise UsageError(f"gen {language} has no option {quote(unknown[0])} for the deals of this family")
    return typed


def _stems(deals: Sequence[specs.NamedDeal]) -> list[str]:
    """File stems from the deals' names (`black_hole:17` -> black_hole-17, a file -> its stem), made unique."""
    stems: list[str] = []
    taken: set[str] = set()
    for item in deals:
        path = Path(item.name)
        base = identifier("file", path.stem if path.is_file() else item.name)
        stem, copy = base, 1
        while stem in taken:
            copy += 1
            stem = f"{base}-{copy}"
        taken.add(stem)
        stems.append(stem)
    return stems


def _label_all(deals: Sequence[specs.NamedDeal], limit: float, jobs: int, quiet: bool) -> list[labels.Label]:
    work = [(index, item, limit) for index, item in enumerate(deals)]
    found = dict(_run(_label_at, work, jobs, None, quiet))
    return [found[index] for index in range(len(deals))]


def _label_at(work: tuple[int, specs.NamedDeal, float]) -> tuple[int, labels.Label]:
    index, named, limit = work
    return index, labels.label(named, limit)


def _run(function, work: Sequence, jobs: int, outcome: str | None, quiet: bool) -> list:
    """`function` on every item on the one pool (at most `jobs` workers, never more than items), with a
    progress bar counting each result's label status (or `outcome`)."""
    progress = Progress(len(work), Counter(), enabled=not quiet, shown=(outcome,) if outcome else None,
                        title="writing" if outcome else "labelling")
    results = []

    def keep(result) -> None:
        results.append(result)
        progress.update(outcome or result[1].status)

    with progress:
        runner(jobs)(function, work, keep)
    return results
