from datetime import date, datetime

import pytest

from shiftplan import Shift, Worker, assign, write_csv
from shiftplan.rules import violations


def shift(id, day, start_h, end_h, site="riverside", role="carer"):
    start = datetime(2025, 3, day, start_h)
    end = datetime(2025, 3, day if end_h > start_h else day + 1, end_h % 24)
    return Shift(id, site, start, end, role)


def test_shift_end_must_follow_start():
    with pytest.raises(ValueError, match="not after start"):
        Shift("x", "riverside", datetime(2025, 3, 3, 8), datetime(2025, 3, 3, 8))


def test_night_shift_hours():
    assert shift("n1", 3, 22, 6).hours == 8


def test_assign_fills_every_shift_it_can():
    workers = [Worker("ana", {"carer"}), Worker("ben", {"carer"})]
    shifts = [shift("a", 3, 6, 14), shift("b", 3, 14, 22), shift("c", 4, 6, 14)]
    rota = assign(shifts, workers)
    assert not rota.unfilled
    assert violations(rota, workers) == []


def test_unavailable_worker_is_skipped():
    workers = [Worker("ana", {"carer"}, unavailable={date(2025, 3, 3)}), Worker("ben", {"carer"})]
    rota = assign([shift("a", 3, 6, 14)], workers)
    assert [s.id for s in rota.shifts_of("ben")] == ["a"]


def test_role_must_match():
    rota = assign([shift("a", 3, 6, 14, role="nurse")], [Worker("ana", {"carer"})])
    assert [s.id for s in rota.unfilled] == ["a"]


def test_weekly_hours_cap():
    w = Worker("ana", {"carer"}, max_hours_week=16)
    rota = assign([shift("a", 3, 6, 14), shift("b", 4, 6, 14), shift("c", 5, 6, 14)], [w])
    assert rota.hours_of("ana") == 16
    assert [s.id for s in rota.unfilled] == ["c"]


def test_csv_export(tmp_path):
    rota = assign([shift("a", 3, 6, 14)], [Worker("ana", {"carer"})])
    write_csv(rota, tmp_path / "rota.csv")
    lines = (tmp_path / "rota.csv").read_text().splitlines()
    assert lines[0] == "worker,shift,site,role,start,end,hours"
    assert lines[1].startswith("ana,a,riverside,carer,2025-03-03T06:00")
