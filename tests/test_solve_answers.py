"""patience solve's own outputs are answers of every game: the text transcript and the `--json`
result both validate (a notebook saves the JSON), a changed move is named by its own line, and a
result that is no win is bad input naming its status line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience.cli import main

WON = {  # a won deal of each game, as `patience deal` deals it
    "black_hole": ["--game", "black_hole", "--seed", "2"],
    "generalised": ["--ranks", "5", "--suits", "2", "--pile-height", "3", "--seed", "3"],
    "golf": ["--game", "golf", "--seed", "2"],
    "worm_hole": ["--game", "worm_hole", "--seed", "1"],
    "binary_star": ["--game", "binary_star", "--seed", "1"],
    "lbs": ["--game", "lbs", "--cards", "14", "--seed", "5"],
}


def run(capsys, *arguments: str) -> tuple[int, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture(params=sorted(WON))
def won(request, tmp_path, capsys) -> Path:
    assert main(["deal", *WON[request.param]]) == 0
    path = tmp_path / f"{request.param}.txt"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return path


def test_the_transcript_and_the_json_result_validate(won, tmp_path, capsys):
    code, transcript = run(capsys, "solve", str(won))
    assert code == 0 and "status: solved" in transcript
    code, result = run(capsys, "solve", str(won), "--json")
    assert code == 0
    moves = next(line.split()[1] for line in transcript.splitlines() if line.startswith("validated: "))
    for name, text in (("out.txt", transcript), ("out.json", result), ("compact.json", json.dumps(json.loads(result)))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        code, said = run(capsys, "validate", str(won), str(tmp_path / name))
        assert (code, said.strip()) == (0, f"valid: {moves} moves"), name


def test_a_changed_move_of_the_json_result_is_named_by_its_line(won, tmp_path, capsys):
    code, result = run(capsys, "solve", str(won), "--json")
    lines = result.splitlines()
    at = next(number for number, line in enumerate(lines) if line.strip().startswith('"sequence"')) + 3
    lines[at] = '    "@@",'
    (tmp_path / "changed.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, said = run(capsys, "validate", str(won), str(tmp_path / "changed.json"))
    assert code == 2 and said.startswith(f"error: {tmp_path / 'changed.json'}:{at + 1}: ")


def test_a_json_result_of_a_loss_is_bad_input_naming_its_status(tmp_path, capsys):
    assert main(["deal", "--ranks", "7", "--suits", "4", "--pile-height", "3", "--seed", "15"]) == 0
    deal = tmp_path / "lost.txt"
    deal.write_text(capsys.readouterr().out, encoding="utf-8")
    code, result = run(capsys, "solve", str(deal), "--json")
    assert code == 1
    (tmp_path / "lost.json").write_text(result, encoding="utf-8")
    status_line = next(number for number, line in enumerate(result.splitlines(), 1) if '"status"' in line)
    code, said = run(capsys, "validate", str(deal), str(tmp_path / "lost.json"))
    assert code == 2 and said.strip() == (f"error: {tmp_path / 'lost.json'}:{status_line}: the answer says status "
                                          "'unsolvable': there is no sequence to replay")
