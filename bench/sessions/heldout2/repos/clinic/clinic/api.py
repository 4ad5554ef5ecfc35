from __future__ import annotations

from datetime import date, datetime

from .booking import BookingError, BookingService
from .calendar import PractitionerCalendar
from .router import Request, Response, Router
from .slots import free_slots

router = Router()
calendar = PractitionerCalendar()
service = BookingService(calendar)
practitioners: dict = {}


@router.route("GET", "/practitioners/{pid}/slots/{day}")
def list_slots(req: Request) -> Response:
    prac = practitioners.get(req.params["pid"])
    if prac is None:
        return Response(404, {"error": "unknown practitioner"})
    day = date.fromisoformat(req.params["day"])
    taken = [(a.start, a.end) for a in calendar.active(prac.id)]
    return Response(200, [{"start": s.isoformat(), "end": e.isoformat()} for s, e in free_slots(prac, day, taken)])


@router.route("POST", "/appointments")
def create_appointment(req: Request) -> Response:
    data = req.json()
    try:
        appt = service.book(data["practitioner_id"], data["patient_id"], datetime.fromisoformat(data["start"]),
                            datetime.fromisoformat(data["end"]), data.get("reason", ""))
    except BookingError as e:
        return Response(409, {"error": str(e)})
    return Response(201, {"id": appt.id})


@router.route("DELETE", "/appointments/{aid}")
def cancel_appointment(req: Request) -> Response:
    try:
        service.cancel(req.params["aid"])
    except BookingError as e:
        return Response(409, {"error": str(e)})
    return Response(204)
