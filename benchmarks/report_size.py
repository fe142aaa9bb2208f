"""Report mail size benchmark: the bytes of each player's report mail per turn, with the animation.

    python3 benchmarks/report_size.py [--turns N]

Prints one JSON document: for the sample campaign (`pbem demo`: the 4-player BotWars game and the 2-player
Geek-o game) and for an 8-player BotWars game played N turns (default 4) by the robot pilot (`game autoplay`),
the largest and the median `.eml` a player gets per turn, in KB (1000 bytes), beside the 200 KB target; and
what a reader of the mail alone still has: each stage's table in the text part and in the HTML part, and the
animation (its frame count). Each command runs in this interpreter with this checkout first on PYTHONPATH.
"""
from __future__ import annotations

import argparse
import email
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from email import policy
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
TARGET_KB = 200
ENVIRONMENT = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_NOW": "2026-01-01T12:00:00Z"}


def pbem(*args: str, cwd: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=cwd, env=ENVIRONMENT, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed ({done.returncode}): {done.stderr}")


def mails(game_folder: Path) -> dict:
    """Sizes of every player's report mail of every turn in a game's report folder, and what each holds."""
    sizes, stage_tables, frames = [], True, []
    for path in sorted(game_folder.glob("turn-*/mail/*.eml")):
        data = path.read_bytes()
        sizes.append(len(data) / 1000)
        message = email.message_from_bytes(data, policy=policy.default)
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        stages = text.count("\nStage ")
        stage_tables &= stages > 0 and html.count(">Stage ") >= stages and "| HP " in text
        for part in message.walk():
            if part.get_content_type() == "image/gif":
                frames.append(Image.open(io.BytesIO(part.get_payload(decode=True))).n_frames)
    return {"mails": len(sizes), "largest_kb": round(max(sizes), 1), "median_kb": round(statistics.median(sizes), 1),
            "target_kb": TARGET_KB, "within_target": max(sizes) <= TARGET_KB,
            "every_stage_table_in_text_and_html": stage_tables, "animation_frames_max": max(frames, default=0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=4)
    turns = parser.parse_args().turns
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pbem("demo", "--out", "demo", cwd=folder)
        db = ["--db", "sqlite:///eight.db"]
        pbem(*db, "game", "new", "bw8", "--ruleset", "botwars", "--seed", "3",
             *[f"--player={p}:{p}@example.org" for p in PLAYERS], cwd=folder)
        pbem(*db, "game", "autoplay", "bw8", "--turns", str(turns), cwd=folder)
        results = {"botwars_demo_4_players": mails(folder / "demo" / "botwars-demo"),
                   "geeko_demo_2_players": mails(folder / "demo" / "geeko-demo"),
                   "botwars_8_players": mails(folder / "reports" / "bw8")}
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    print(json.dumps({"machine": {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version()},
                      "turns_8_players": turns, "results": results}, indent=2))


if __name__ == "__main__":
    main()
