"""An exercise for a class: instances at a chosen hardness, a sheet for the students, and the
reference answers for the teacher (`patience coursework`).

The instances come from a pool of deals labelled as benchmark families label theirs (the native
search's validated verdict and its nodes, the hardness measure of `gen --select`), chosen easiest,
hardest, as a seeded sample or spread evenly over the pool's hardness, and numbered from the
easiest. Each is written in the data format of the students' model language (the `.dzn`, `.param`
or ASP facts the toolkit's own model of that language reads, or those a mapping names) and in the
toolkit's deal form (what `patience grade --instances` reads). The answers (validated solutions, a
replay page each, the verdicts) go to a folder of their own, never inside the students' folder.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import random
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from patience.cards import STANDARD_RANKS
from patience.errors import UsageError, printable
from patience.families import select
from patience.families.labels import Label, native_nodes
from patience.families.write import Target
from patience.games import AnyDeal, Sheet, game_of, games_with, get_game
from patience.generators.deals import random_games
from patience.grading.student import SOLVERS, GameMapping
from patience.lbs import deal as lbs_deal
from patience.names import (
    GAME_TITLES,
    GENERALISED,
    LBS,
    NUMBERED_GAMES,
    is_deal_of,
)
from patience.options import check_options
from patience.outputs import check_apart, check_folder, new_folder
from patience.pages.replay import game_page, render
from patience.result import Status
from patience.runners.base import build_model
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs import specs
from patience.runs.pool import runner
from patience.runs.process import Limits, stop_signals_unwind

LANGUAGES = {"mzn": ".mzn", "eprime": ".eprime", "asp": ".lp"}  # gen's language names -> a model's suffix
LANGUAGE_TITLES = {"mzn": "MiniZinc", "eprime": "Essence Prime (Savile Row)", "asp": "ASP (clingo)"}
HARDNESS = ("easiest", "hardest", "sample", "spread")
SHEETS = ("md", "html")
POOL_SEEDS = 1_000_000  # a pool's deals are drawn from game numbers (or seeds) 1..POOL_SEEDS
DATA_LINES = 40  # lines of an instance's data shown on the sheet

BENCHMARK_NUMBERS = ("`layout` holds the 17 piles of 3, a row a pile, its top card first. A card is a number c from "
                     "1 to 52: its rank is (c - 1) mod 13 (0 is an ace, 12 a king) and its suit (c - 1) div 13 "
                     "(0 ♠, 1 ♥, 2 ♦, 3 ♣), so 1 is the A♠, which starts on the "
                     "foundation and is in no pile.")


@dataclass(frozen=True)
class Exercise:
    """What the teacher asks for (every choice of `patience coursework`)."""

    game: str
    language: str = "mzn"
    count: int = 10
    hardness: str = "spread"
    unsolvable: int | None = None  # exactly this many unsolvable instances (None: whatever the choice gives)
    seed: int = 0
    pool: int = 100
    deals: str | None = None  # a deal spec instead of the seeded pool
    cards: int = 20  # lbs pool: cards in a row
    shape: tuple[int, int, int] = (7, 4, 3)  # generalised pool: ranks, suits, pile height
    mapping: GameMapping = field(default_factory=GameMapping)
    sheet: str = "md"
    timeout: float = 60.0  # seconds a student's model has per instance (said on the sheet)
    label_timeout: float = 60.0  # the native search's limit per pool deal
    jobs: int = 1  # worker processes labelling the pool
    mapping_name: str = ""  # how the sheet names the mapping (a shipped name, or the file's name)


@dataclass(frozen=True)
class Instance:
    """One chosen deal: its name on the sheet, its source in the pool and its validated label."""

    name: str
    source: str
    deal: AnyDeal
    status: Status
    nodes: int | None
    seconds: float
    moves: tuple[str, ...] | None  # the native search's validated win, as move names
    sequence: tuple[Any, ...] | None = None  # the same win as the game's moves (for its replay page)


def pool(exercise: Exercise) -> list[specs.NamedDeal]:
    """The deals to choose from: the spec's, or `pool` seeded game numbers (seeds) of the game."""
    game = exercise.game
    if exercise.deals is not None:
        found = specs.resolve(exercise.deals)
        for item in found:
            if not is_deal_of(item.game.variant(item.deal), game):
                raise UsageError(f"--deals: {item.name} is a {item.game.variant(item.deal)} deal, not {game}")
        return found
    seeds = sorted(random.Random(exercise.seed).sample(range(1, POOL_SEEDS + 1), exercise.pool))
    listed = ",".join(map(str, seeds))
    if game in random_games():  # a generalised game dealing its own: seeded deals of the shape
        return specs.resolve(f"{game}:{','.join(map(str, exercise.shape))}:{listed}")
    if game in NUMBERED_GAMES or game in games_with("numbered_deal"):  # PySolFC's numbers, or the game's own
        return specs.resolve(f"{game}:{listed}")
    if game == GENERALISED:
        return specs.resolve(f"random:{','.join(map(str, exercise.shape))}:{listed}")
    if game == LBS:
        return [specs.NamedDeal(f"lbs:{exercise.cards}:{seed}", get_game(LBS),
                                lbs_deal.random_deal(exercise.cards, seed)) for seed in seeds]
    raise UsageError(f"{game} has no numbered or seeded deals: give --deals SPEC (a folder of its deals)")


def label(named: specs.NamedDeal, seconds: float) -> Instance:
    """The native search's verdict on one deal, its win validated by replay (the reference answer)."""
    result = solve(named.deal, "native", Limits(timeout=seconds))
    game = get_game(named.game.name)
    moves = None if result.sequence is None else tuple(map(str, game.move_names(named.deal, result.sequence)))
    return Instance("", named.name, named.deal, result.status, result.nodes, round(result.wall, 4), moves,
                    result.sequence)


def label_all(deals: Sequence[specs.NamedDeal], seconds: float, jobs: int) -> list[Instance]:
    """Every pool deal labelled, on the one worker pool (`jobs` workers), in the pool's order."""
    found: dict[int, Instance] = {}
    runner(jobs)(_label_at, [(index, named, seconds) for index, named in enumerate(deals)],
                 lambda result: found.__setitem__(*result))
    return [found[index] for index in range(len(deals))]


def _label_at(work: tuple[int, specs.NamedDeal, float]) -> tuple[int, Instance]:
    index, named, seconds = work
    return index, replace(label(named, seconds), name=named.name)


def choose(labelled: Sequence[Instance], exercise: Exercise) -> list[Instance]:
    """`count` decided instances at the asked hardness (with exactly `unsolvable` unsolvable ones),
    numbered from the easiest; a usage error when the pool has too few."""
    decided = [item for item in labelled if item.status.decided]
    if exercise.unsolvable is None:
        wanted = [(decided, exercise.count)]
    else:
        wanted = [([item for item in decided if item.status is Status.UNSOLVABLE], exercise.unsolvable),
                  ([item for item in decided if item.status is Status.SOLVED], exercise.count - exercise.unsolvable)]
    chosen: list[Instance] = []
    for candidates, count in wanted:
        if count > len(candidates):
            kind = "" if exercise.unsolvable is None else " unsolvable" if candidates is wanted[0][0] else " solved"
            raise UsageError(f"the pool of {len(labelled)} deals has {len(candidates)}{kind} deals decided within "
                             f"{exercise.label_timeout:g} s, not {count}: give a larger --pool or fewer instances")
        chosen += [candidates[index] for index in pick(candidates, count, exercise.hardness, exercise.seed)]
    place = {id(item): index for index, item in enumerate(labelled)}
    chosen.sort(key=lambda item: (item.nodes or 0, place[id(item)]))  # the easiest first, ties in the pool's order
    width = max(2, len(str(len(chosen))))
    return [named(item, f"{exercise.game}-{number:0{width}d}") for number, item in enumerate(chosen, 1)]


def named(item: Instance, name: str) -> Instance:
    """The instance under its name on the sheet; a deal that carries a name (LBS's) carries it too."""
    return replace(item, name=name, deal=game_of(item.deal).named(item.deal, name))


def pick(candidates: Sequence[Instance], count: int, hardness: str, seed: int) -> list[int]:
    """Positions of `count` candidates: the families' easiest, hardest or sample, or `spread`, at
    evenly spaced places of the candidates sorted by the measure (native nodes)."""
    labels = [Label(item.status, item.nodes, None, item.seconds) for item in candidates]
    measure = native_nodes(labels)
    if hardness != "spread":
        return select.choose(labels, measure, select.Selection(hardness, count), "any", seed)
    ranked = sorted(range(len(candidates)), key=lambda index: (measure[index], index))
    if count <= 1:
        return ranked[len(ranked) // 2:][:count]
    return sorted(ranked[round(step * (len(ranked) - 1) / (count - 1))] for step in range(count))


def instance_files(instances: Sequence[Instance], exercise: Exercise) -> tuple[dict[str, str], str]:
    """The students' files of every instance (`instances/NAME.dzn` in the model language's data
    format, `deals/NAME.txt` in the toolkit's form), and the toolkit's model text of that language."""
    solver = get_solver(SOLVERS[LANGUAGES[exercise.language]])
    options = check_options(solver.options, dict(exercise.mapping.options), "--mapping")
    files: dict[str, str] = {}
    model_text = ""
    for item in instances:
        try:
            model = build_model(exercise.language, item.deal, options)
        except (UsageError, ValueError) as error:
            raise UsageError(f"{item.source}: the {exercise.language} data cannot hold this deal: {error}") from None
        files[f"instances/{item.name}{Path(model.primary).suffix}"] = model.files[model.primary]
        own = [name for name in model.files if name.endswith(LANGUAGES[exercise.language]) and name != model.primary]
        model_text = model_text or (model.files[own[0]] if own else "")
        files.update(deal_file(item, exercise.game))
    return files, model_text


def deal_file(item: Instance, game_name: str) -> dict[str, str]:
    """The deal as `patience` reads it: the game's plain form (its sheet's), or YAML for a shape that form
    cannot hold."""
    game = get_game(game_name)
    form, suffix = sheet_of(game_name).deal_form
    try:
        return {f"deals/{item.name}{suffix}": game.write_deal(item.deal, form)}
    except ValueError:
        return {f"deals/{item.name}.yaml": game.write_deal(item.deal, "yaml")}


def sheet_of(game: str) -> Sheet:
    """What the sheet says of `game` (its `Game.sheet`); a usage error for a game without exercises."""
    found = get_game(game).sheet
    if found is None:
        raise UsageError(f"there are no exercises of {game} yet")
    return found


def answer_files(instances: Sequence[Instance], exercise: Exercise, students: Mapping[str, str]) -> dict[str, str]:
    """The teacher's folder: each win (`NAME.solution`, one move a line, as `patience validate`
    reads it) with its replay page, and every verdict in `answers.csv` and `answers.json` (no times:
    the same exercise gives the same bytes)."""
    files: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    for item in instances:
        own = sorted(name for name in students if Path(name).stem == item.name)
        if item.moves is not None:
            files[f"{item.name}.solution"] = "\n".join(item.moves) + "\n"
            files[f"{item.name}.html"] = render(game_page(exercise.game, item.deal, item.sequence, item.name),
                                                f"Reference answer: {item.name}", [f"source: {item.source}"])
        rows.append({"instance": item.name, "source": item.source, "cards": len(item.deal.cards),
                     "status": item.status.value, "moves": None if item.moves is None else len(item.moves),
                     "nodes": item.nodes, "files": own,
                     "sha256": [hashlib.sha256(students[name].encode()).hexdigest() for name in own]})
    table = io.StringIO()
    writer = csv.DictWriter(table, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({**row, "files": " ".join(row["files"]), "sha256": " ".join(row["sha256"])} for row in rows)
    about = {"game": exercise.game, "language": exercise.language, "count": exercise.count,
             "hardness": exercise.hardness, "unsolvable": exercise.unsolvable, "seed": exercise.seed,
             "pool": exercise.deals or exercise.pool, "mapping": dict(exercise.mapping.options),
             "labels": {"solver": "native", "timeout": exercise.label_timeout}}
    files["answers.csv"] = table.getvalue()
    files["answers.json"] = json.dumps({**about, "instances": rows}, indent=1) + "\n"
    return files


def build_exercise(exercise: Exercise) -> tuple[list[Instance], dict[str, str], dict[str, str]]:
    """Label the pool, choose the instances, and every file of both folders (nothing written yet)."""
    if exercise.count < 1 or exercise.pool < 1 or exercise.jobs < 1:
        raise UsageError("an exercise has at least one instance, a pool of one deal and one job")
    if exercise.unsolvable is not None and exercise.unsolvable > exercise.count:
        raise UsageError(f"--unsolvable {exercise.unsolvable} is more than the {exercise.count} instances")
    if exercise.deals is None and exercise.pool < exercise.count:
        raise UsageError(f"--pool {exercise.pool} is smaller than --count {exercise.count}")
    labelled = label_all(pool(exercise), exercise.label_timeout, exercise.jobs)
    instances = choose(labelled, exercise)
    students, model_text = instance_files(instances, exercise)
    students[f"sheet.{exercise.sheet}"] = sheet(instances, exercise, students, model_text)
    return instances, students, answer_files(instances, exercise, students)


def declarations(model_text: str, language: str, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """The toolkit model's lines that declare the data (its parameters) and the answer (the
    variables the grader reads), for the sheet: what every model of the exercise reads and shows."""
    lines = model_text.splitlines()
    if language == "asp":
        return _leading_comments(lines), []
    if language == "eprime":
        given = [line.strip() for line in lines if re.match(r"\s*given\b", line)]
        found = [line.strip() for line in lines if any(re.match(rf"\s*find\s+{name}\b", line) for name in names)]
        return given, found
    parameter = re.compile(r"\s*(int|bool|float|set\s+of\s+[^:]+|array\s*\[[^\]]*\]\s*of\s+[^:]+):\s*\w+\s*;"
                           r"|\s*set\s+of\s+int\s*:\s*\w+\s*=")
    given = [line.strip() for line in lines if parameter.match(line) and not re.search(r"\bvar\b", line.split(":")[0])]
    found = [line.strip() for line in lines if re.search(r"\bvar\b", line.split(":")[0])
             and any(re.search(rf":\s*{name}\s*(;|=|::)", line) for name in names)]
    return given, found


def _leading_comments(lines: Sequence[str]) -> list[str]:
    header = []
    for line in lines:
        if not line.startswith("%"):
            break
        header.append(line)
    return header


INCLUDE_EXAMPLES = {".mzn": 'include "helper.mzn";', ".lp": '#include "rules.lp".'}  # Essence Prime has none


def sheet(instances: Sequence[Instance], exercise: Exercise, students: Mapping[str, str], model_text: str) -> str:
    """The assignment sheet: the game's rules, the instances, their data format, what to hand in
    and how it is graded; Markdown or a self-contained HTML page."""
    language, game_sheet = exercise.language, sheet_of(exercise.game)
    suffix, title = LANGUAGES[language], LANGUAGE_TITLES[language]
    names = game_sheet.outputs
    given, found = declarations(model_text, language, names)
    files = {item.name: [next(name for name in students if name.startswith(folder) and Path(name).stem == item.name)
                         for folder in ("instances/", "deals/")] for item in instances}  # data, deal
    data_name = files[min(instances, key=lambda item: len(item.deal.cards)).name][0]
    data = students[data_name].splitlines()
    more = [f"... ({len(data) - DATA_LINES} more lines)"] if len(data) > DATA_LINES else []
    shown = "\n".join(data[:DATA_LINES] + more)
    renames = {name: exercise.mapping.variables[name] for name in names
               if exercise.mapping.variables.get(name, name) != name}
    if language == "mzn":  # only what the instances give: a model's own tables are not data
        assigned = set(re.findall(r"^\s*(\w+)\s*=", students[data_name], flags=re.MULTILINE))
        given = [line for line in given
                 if (given_name := re.search(r":\s*(\w+)", line)) is not None and given_name.group(1) in assigned]
    given = with_definitions(model_text, language, given, found)
    # a name lands in Markdown as a code span, in HTML as text (page() escapes it); one line in both
    name = markdown_name if exercise.sheet == "md" else printable
    mapping = shlex.quote(printable(exercise.mapping_name)) if exercise.mapping_name else "MAPPING.yaml"
    grade = [f"patience grade model{suffix} --game {exercise.game} --instances deals/ --timeout {exercise.timeout:g}"
             + (f" --mapping {mapping}" if exercise.mapping.options or exercise.mapping.variables else "")]
    blocks: list[tuple[str, Any]] = [
        ("h1", f"{GAME_TITLES[exercise.game]} in {title}"),
        ("p", f"Write a {title} model that plays {GAME_TITLES[exercise.game]}: given a deal, it finds a winning "
              f"play, or says that there is none. Check it on the {len(instances)} instances below."),
        ("h2", "The game"),
        *(("p", text) for text in game_sheet.rules),
        ("h2", "The instances"),
        ("p", "Each instance is in instances/ as the data your model reads, and in deals/ as the deal itself "
              "(`patience show deals/NAME` draws it, `patience grade` reads it). They are numbered from the "
              "easiest. Some may have no solution."),
        ("table", (("instance", "cards", "data", "deal"),
                   [(name(item.name), str(len(item.deal.cards)), *map(name, files[item.name])) for item in instances])),
        ("h2", "The data format"),
        ("p", f"Every instance file gives the same parameters{'' if given else ' (see the example)'}"
              + (", and the names they use, defined from them" if any(_DEFINITION.match(line) for line in given)
                 else "")
              + ":"),
        *((("code", "\n".join(given)),) if given else ()),
        ("p", numbers(exercise, instances)),
        ("p", f"For example, {name(data_name)}:"),
        ("code", shown),
        ("h2", "What to hand in"),
        ("p", f"One model, model{suffix}, in a folder named after you"
              + (f" (it may include files it keeps beside it in that folder: `{INCLUDE_EXAMPLES[suffix]}`)"
                 if suffix in INCLUDE_EXAMPLES else ", alone") +
              ". It reads one instance file and "
              "shows the play in the variables below (the grader reads them and replays the play card by card; "
              "any other output is yours). When an instance has no solution, the model must say so: "
              "unsatisfiable, with no solution shown. The model may not include or read any file outside "
              "its folder: such a model is not run."),
        *((("code", "\n".join(found)),) if found else (("p", game_sheet.asp_shown + " (`#show` it)."),)),
        *((("p", "Your model may name them " + ", ".join(f"{name(theirs)} (for {name(ours)})"
                                                         for ours, theirs in renames.items())
                 + ", as the mapping says."),) if renames else ()),
        ("h2", "How it is graded"),
        ("p", f"Your model runs on every instance with {exercise.timeout:g} seconds each, as this command does "
              f"(run it yourself before you hand in):"),
        ("code", "\n".join(grade)),
        ("list", ["correct: a play that wins when it is replayed, or \"no solution\" where the toolkit's own "
                  "search proves there is none;",
                  "wrong: a play that breaks a rule or does not win, \"no solution\" where there is one, an error "
                  "or garbage;",
                  "not graded: out of time."]),
        ("p", f"The teacher may also pose deals you have not seen: `patience grade model{suffix} --game "
              f"{exercise.game} --hunt 200` stops at the first deal your model gets wrong and shrinks it."),
    ]
    return markdown(blocks) if exercise.sheet == "md" else page(blocks, f"{GAME_TITLES[exercise.game]} in {title}")


# a model's line that defines a name from the data: MiniZinc's `set of int: CARD = 0..n-1;` or
# `int: n = length(cards);`, Essence Prime's `letting CARD be domain int(0..n-1)`
_DEFINITION = re.compile(r"\s*(?:(?:int|bool|float|set\s+of\s+int)\s*:\s*(\w+)\s*=(?!=)|letting\s+(\w+)\s+be\b)")


def with_definitions(model_text: str, language: str, given: Sequence[str], found: Sequence[str]) -> list[str]:
    """The data's declarations with the model's definitions of every name they and the answer's
    variables use (CARD, POSITION, n = length(cards), ...), and of the names those use, in the
    model's order: the sheet declares every name it shows."""
    if language == "asp":
        return list(given)
    definitions: dict[str, str] = {}
    for line in model_text.splitlines():
        match = _DEFINITION.match(line)
        if match is not None:
            definitions.setdefault(match.group(1) or match.group(2), line.strip())
    kept, todo = set(given), list((*given, *found))
    while todo:
        for word in re.findall(r"\b[A-Za-z_]\w*\b", todo.pop().split("%")[0].split("$")[0]):
            if word in definitions and definitions[word] not in kept:
                kept.add(definitions[word])
                todo.append(definitions[word])
    return [line.strip() for line in model_text.splitlines() if line.strip() in kept]


def numbers(exercise: Exercise, instances: Sequence[Instance]) -> str:
    """What the numbers of the data mean (0 above all, where it is no card) and how the instances'
    comments name the cards, for the toolkit's data or the public Black Hole model's."""
    if exercise.mapping.options.get("formulation") == "benchmark":
        return BENCHMARK_NUMBERS
    game_sheet, first = sheet_of(exercise.game), instances[0].deal
    ranks = game_of(first).sizes(first).ranks or STANDARD_RANKS
    text = game_sheet.numbers[exercise.language].format(ranks=ranks, two=3 * ranks + 1)
    if exercise.language in game_sheet.card_comment:
        text += (" The comment at the head of each instance names each card: "
                 + game_sheet.card_comment[exercise.language])
    return text


def markdown_name(text: str) -> str:
    """A name (a file's) in Markdown: one printable line as a code span that nothing in it can end
    (more backticks than its longest run), so that it starts no code block, link, emphasis or raw
    HTML; a `|` escaped, which would end a table's cell even there."""
    shown = printable(text).replace("|", "\\|")
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", shown)), default=0) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{ticks}{pad}{shown}{pad}{ticks}"


def fence(body: str) -> str:
    """A code fence that `body` cannot end: more backticks than its longest run of them."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    return "`" * max(3, longest + 1)


def markdown(blocks: Sequence[tuple[str, Any]]) -> str:
    out = []
    for kind, body in blocks:
        if kind in ("h1", "h2"):
            out.append(f"{'#' * int(kind[1])} {body}")
        elif kind == "p":
            out.append(body)
        elif kind == "code":
            out.append(f"{fence(body)}\n{body}\n{fence(body)}")
        elif kind == "list":
            out.append("\n".join(f"- {item}" for item in body))
        else:
            head, rows = body
            out.append("\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
                                  *("| " + " | ".join(row) + " |" for row in rows)]))
    return "\n\n".join(out) + "\n"


def html_text(text: str) -> str:
    """A sheet's text as HTML: escaped, its `code` spans (the Markdown sheet's) set as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def page(blocks: Sequence[tuple[str, Any]], title: str) -> str:
    """The same sheet as one HTML page (every text escaped; no script, no network)."""
    out = ["<!DOCTYPE html>", '<html lang="en">', '<head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>",
           "<style>body { font-family: system-ui, sans-serif; margin: 2em; max-width: 50em; } "
           "pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; } "
           "td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; } table { border-collapse: collapse; }</style>",
           "</head>", "<body>"]
    for kind, body in blocks:
        if kind in ("h1", "h2", "p"):
            out.append(f"<{kind}>{html_text(body)}</{kind}>")
        elif kind == "code":
            out.append(f"<pre><code>{html.escape(body)}</code></pre>")
        elif kind == "list":
            out.append("<ul>" + "".join(f"<li>{html_text(item)}</li>" for item in body) + "</ul>")
        else:
            head, rows = body
            out.append("<table><thead><tr>" + "".join(f"<th>{html.escape(cell)}</th>" for cell in head)
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
                                 for row in rows) + "</tbody></table>")
    return "\n".join([*out, "</body>", "</html>"]) + "\n"


def write_exercise(exercise: Exercise, out: Path, answers: Path, force: bool = False,
                   inputs: Sequence[str | Path] = ()) -> list[Instance]:
    """Both folders checked before any search (apart from each other and from the deals read; a
    non-empty one only with `force`), then built and written whole or not at all. The instances."""
    check_apart(out, [answers])  # the answers never inside the students' folder, nor the reverse
    for folder in (out, answers):
        check_folder(folder)
        check_apart(folder, inputs)
        refused = Target(folder, force).check()
        if refused:
            raise UsageError(refused)
    instances, students, teacher = build_exercise(exercise)
    with stop_signals_unwind(), new_folder(out, replace=force) as private_out, \
            new_folder(answers, replace=force) as private_answers:
        for folder, files in ((private_out, students), (private_answers, teacher)):
            for name, text in files.items():
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(text)
    return instances
