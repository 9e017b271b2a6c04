"""The second reader for the calendar tests: python icalendar and
recurring-ical-events (Debian's python3-icalendar 4.0.3,
python3-recurring-ical-events 2.0.1).

occurrences.py FILE FROM TO
    the starts of the occurrences in [FROM, TO) (dates, UTC), one a line,
    sorted: UTC RFC 3339 (Z) for times, YYYY-MM-DD for dates.
occurrences.py --offsets FILE TZID FROM_YEAR TO_YEAR
    the UTC offset in seconds the file's VTIMEZONE TZID gives at 00, 06, 12
    and 18 UTC of every day of those years, one a line: "unix offset".
"""
import datetime
import sys

import icalendar
import recurring_ical_events

UTC = datetime.timezone.utc


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    # icalendar learns a custom VTIMEZONE when the parser reaches it; read
    # twice so that a VTIMEZONE after its events (allowed) is known.
    icalendar.Calendar.from_ical(data)
    return icalendar.Calendar.from_ical(data)


def occurrences(path, start, stop):
    cal = read(path)
    start = datetime.datetime.strptime(start, "%Y-%m-%d").replace(tzinfo=UTC)
    stop = datetime.datetime.strptime(stop, "%Y-%m-%d").replace(tzinfo=UTC)
    out = []
    for ev in recurring_ical_events.of(cal).between(start, stop):
        dt = ev["DTSTART"].dt
        if isinstance(dt, datetime.datetime):
            if dt.tzinfo is None:
                raise SystemExit("floating time in %s: give zoned or UTC times" % path)
            out.append(dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
        else:
            out.append(dt.isoformat())
    print("\n".join(sorted(out)))


def offsets(path, tzid, first, last):
    cal = read(path)
    tz = next(c for c in cal.walk("VTIMEZONE") if str(c["TZID"]) == tzid).to_tz()
    t = datetime.datetime(int(first), 1, 1, tzinfo=UTC)
    end = datetime.datetime(int(last) + 1, 1, 1, tzinfo=UTC)
    lines = []
    while t < end:
        lines.append("%d %d" % (t.timestamp(), t.astimezone(tz).utcoffset().total_seconds()))
        t += datetime.timedelta(hours=6)
    print("\n".join(lines))


if sys.argv[1] == "--offsets":
    offsets(*sys.argv[2:6])
else:
    occurrences(*sys.argv[1:4])
