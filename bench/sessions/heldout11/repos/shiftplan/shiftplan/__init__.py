"""Staff rotas: who works which shift."""

from shiftplan.model import Shift, Worker, Rota
from shiftplan.assign import assign
from shiftplan.export import write_csv, write_ical

__all__ = ["Shift", "Worker", "Rota", "assign", "write_csv", "write_ical"]
