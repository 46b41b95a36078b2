"""Issue 31: a sweep store with a malformed row says which row and how to recover (no traceback),
and rows that are not part of the sweep are not counted into its report."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import TESTS

from slipstream.cli.main import main

TOY = str(TESTS / "toy")


def sweep(db: Path) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["sweep", TOY, "--vary", "option:die=2,12", "--races", "3", "--bots",
                                    "random,random", "--db", str(db), "--format", "json"], catch_exceptions=False)
    return res.exit_code, res.output


def report(db: Path) -> dict:
    code, out = sweep(db)
    assert code == 0, out
    data = json.loads(out[out.index("{"):])
    data.pop("store")
    return data


def sql(db: Path, statement: str, *args) -> None:
    con = sqlite3.connect(db)
    with con:
        con.execute(statement, args)
    con.close()


@pytest.mark.parametrize("bad", ["garbage", "[]", json.dumps({"variant": 0, "seed": 2}),
                                 json.dumps({"variant": 0, "seed": 2, "names": ["a"], "grid": [0],
                                             "standings": ["x"]})])
def test_a_malformed_race_row_is_named_with_the_way_to_recover(tmp_path: Path, bad: str):
    db = tmp_path / "s.sqlite"
    first = report(db)
    sql(db, "UPDATE race SET result = ? WHERE variant = 0 AND seed = 2", bad)
    code, out = sweep(db)
    assert code == 2, out
    assert "the race row of variant 0, seed 2 is not a race record" in out
    command = out[out.index("DELETE"):out.index('"', out.index("DELETE"))]
    sql(db, command)  # the recovery it gives: the row is raced again
    assert report(db) == first


def test_a_malformed_variant_row_is_named_with_the_way_to_recover(tmp_path: Path):
    db = tmp_path / "s.sqlite"
    first = report(db)
    sql(db, "UPDATE variant SET assignment = 'garbage' WHERE idx = 1")
    code, out = sweep(db)
    assert code == 2, out
    assert "the variant row 1 is malformed" in out
    command = out[out.index("DELETE"):out.index('"', out.index("DELETE"))]
    sql(db, command)
    assert report(db) == first


def test_stray_rows_are_not_counted_into_the_report(tmp_path: Path):
    db = tmp_path / "s.sqlite"
    first = report(db)
    con = sqlite3.connect(db)
    key, = con.execute("SELECT key FROM sweep").fetchone()
    row, = con.execute("SELECT result FROM race WHERE variant = 0 AND seed = 1").fetchone()
    con.close()
    extra = json.loads(row)
    for variant, seed in ((0, 99), (5, 1)):
        extra.update(variant=variant, seed=seed)
        sql(db, "INSERT INTO race VALUES (?, ?, ?, ?)", key, variant, seed, json.dumps(extra))
    sql(db, "INSERT INTO race VALUES (?, ?, ?, ?)", key, "x", 1, "garbage")
    sql(db, "INSERT INTO variant VALUES (?, ?, ?, ?, ?)", key, 7, "stray", "{}", "d")
    res = CliRunner().invoke(main, ["sweep", TOY, "--vary", "option:die=2,12", "--races", "3", "--bots",
                                    "random,random", "--db", str(db), "--format", "json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "4 row(s)" in res.output and "left out of the report" in res.output
    data = json.loads(res.output[res.output.index("{"):])
    data.pop("store")
    assert data == first
    assert [v["races"] for v in data["variants"]] == [3, 3]
