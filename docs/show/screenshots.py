"""Remake the screenshots in docs/show from real pages: the paper example's replay at its start and
end, a wrong answer stopped at its first illegal move, an LBS deal, the tutorial's deals, a Binary
Star deal with a card picked, and a campaign report.

    .venv/bin/python docs/show/screenshots.py --db bh.sqlite   # a store of `patience compare`
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from patience.pages.browser import chromium

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PAPER = ROOT / "instances" / "black_hole" / "paper-example.txt"
SOLUTION = PAPER.with_suffix(".solution")
LBS = ROOT / "instances" / "lbs-coursework" / "SolvableInstances" / "LBS10_12.param"


def patience(*arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "patience", *arguments], check=True, stdout=subprocess.DEVNULL)


def shoot(session, page: Path, picture: str, keys: str = "", width: int = 1360, click: str = "",
          hover: str = "") -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    session.set_window_size(width, 900)
    session.get(page.resolve().as_uri())
    for key in keys.split():
        session.find_element("css selector", "body").send_keys(getattr(Keys, key))
    if click:
        session.find_element("css selector", click).click()
    height = session.execute_script("return document.documentElement.scrollHeight")
    session.set_window_size(width, min(height, 2200))
    if hover:
        points = session.find_elements("css selector", hover)
        ActionChains(session).move_to_element(points[len(points) // 2]).perform()
    session.save_screenshot(str(HERE / picture))
    from PIL import Image  # matplotlib's dependency: 256 colours (octree keeps the reds) make the PNGs small

    Image.open(HERE / picture).convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE).save(
        HERE / picture, optimize=True)
    print(HERE / picture)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a campaign store for the report's screenshot")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="patience-shots-") as folder, chromium() as session:
        pages = Path(folder)
        wrong = pages / "wrong.solution"
        wrong.write_text(SOLUTION.read_text().replace("6S 7S", "7S 6S"))
        patience("show", str(PAPER), str(SOLUTION), "-o", str(pages / "paper.html"))
        patience("show", str(PAPER), str(wrong), "-o", str(pages / "wrong.html"))
        patience("show", str(LBS), str(LBS) + ".solution", "-o", str(pages / "lbs.html"))
        shoot(session, pages / "paper.html", "replay-start.png")
        shoot(session, pages / "paper.html", "replay-end.png", "END")
        shoot(session, pages / "wrong.html", "replay-invalid.png", "END")
        shoot(session, pages / "lbs.html", "lbs.png", "ARROW_RIGHT ARROW_RIGHT ARROW_RIGHT")
        # the tutorial's deals: PySol Black Hole 2 to play, its wrong answer, LBS8_2 with a pile picked
        (pages / "bh2.txt").write_text(subprocess.run([sys.executable, "-m", "patience", "deal", "--seed", "2"],
                                                      check=True, capture_output=True, text=True).stdout)
        (pages / "bh2.bad").write_text("AS AD KH 2H\n")
        (pages / "LBS8_2.param").write_text("letting cards be [3,5,50,23,10,42,19,16]\n")
        patience("show", str(pages / "bh2.txt"), "-o", str(pages / "bh2.html"))
        patience("show", str(pages / "bh2.txt"), str(pages / "bh2.bad"), "-o", str(pages / "bh2-bad.html"))
        patience("show", str(pages / "LBS8_2.param"), "-o", str(pages / "lbs8.html"))
        shoot(session, pages / "bh2.html", "tutorial-rules.png")
        shoot(session, pages / "bh2-bad.html", "tutorial-wrong.png")
        shoot(session, pages / "lbs8.html", "tutorial-lbs.png", click='.pile[data-pile="6"] .card')
        # PySolFC's Binary Star deal 1: the native answer at move 30, a card picked to show its foundations
        (pages / "star.txt").write_text(subprocess.run(
            [sys.executable, "-m", "patience", "deal", "--game", "binary_star", "--seed", "1"],
            check=True, capture_output=True, text=True).stdout)
        patience("show", str(pages / "star.txt"), "--solver", "native", "-o", str(pages / "star.html"))
        shoot(session, pages / "star.html", "binary-star.png", " ".join(["ARROW_RIGHT"] * 30), width=1400,
              click=".pile .card.legal")
        if args.db:
            patience("report", args.db, "--html", str(pages / "report"))
            shoot(session, pages / "report" / "index.html", "report.png", width=1400, hover="#plot-effort .point")


if __name__ == "__main__":
    main()
