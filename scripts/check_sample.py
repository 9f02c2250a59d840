#!/usr/bin/env python3
"""Checks the output of `report-sample` against the input rules of SPEC §1.

It runs the built binary, so it needs `swift build --product report-sample` first:

    python3 scripts/check_sample.py [--binary .build/debug/report-sample] [--sample-dir SampleData]

What it checks:
  * every file parses in its layout (array, wrapper object, JSON Lines) and its kind is told by its name;
  * every record is valid by SPEC §1 (required fields, JSON types, timestamps and dates, enums after
    NFC, ranges, time-zone names, no repeated field names);
  * the sample holds the cases the brief asks for (DST days, orphans, edge cases of the fleet);
  * the same seed gives byte-identical files, another seed different ones, and the committed
    SampleData is what the generator writes today;
  * `generate` writes exactly N records of every kind, `scale --scale 0.01` whole valid sets.
"""
import argparse
import collections
import datetime
import filecmp
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
import zoneinfo

KINDS = ["users", "flows", "tasks", "focus_sessions", "logins", "moods", "services", "slots", "customers",
         "bookings", "events", "groups", "drivers", "assignments", "loan_records"]
TIMESTAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})$")
DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
CLOCK = re.compile(r"^(\d{2}):(\d{2})$")
MISSING = object()


class Invalid(Exception):
    pass


def kind_of(name):
    """SPEC §1: the longest kind the file name starts with, then the end or a non-letter."""
    best = None
    for kind in KINDS:
        if name.startswith(kind) and (len(name) == len(kind) or not name[len(kind)].isalpha()):
            if best is None or len(kind) > len(best):
                best = kind
    return best


def no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Invalid("repeated field name")
    return dict(pairs)


def read_records(path):
    """Returns (layout, records) for a file, by SPEC §1's layout rules."""
    with open(path, "rb") as handle:
        data = handle.read()
    text = data.decode("utf-8")
    if path.endswith(".jsonl") or path.endswith(".ndjson"):
        return "jsonl", [json.loads(line, object_pairs_hook=no_duplicates) for line in text.splitlines() if line.strip()]
    value = json.loads(text, object_pairs_hook=no_duplicates)
    if isinstance(value, list):
        return "array", value
    arrays = [key for key, member in value.items() if isinstance(member, list)]
    scalars = all(not isinstance(member, (dict, list)) for key, member in value.items() if key not in arrays)
    if len(arrays) == 1 and scalars:
        return "wrapped", value[arrays[0]]
    raise Invalid("object that is neither a wrapper nor JSON Lines")


# ---- field rules -------------------------------------------------------------------------------

def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def parse_timestamp(value):
    if not isinstance(value, str):
        raise Invalid(f"timestamp is not a string: {value!r}")
    match = TIMESTAMP.match(value)
    if not match:
        raise Invalid(f"bad timestamp form {value!r}")
    year, month, day, hour, minute = (int(match.group(i)) for i in range(1, 6))
    second = int(match.group(6) or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise Invalid(f"bad time {value!r}")
    try:
        datetime.date(year, month, day)
    except ValueError:
        raise Invalid(f"not a calendar date {value!r}") from None
    offset = match.group(8)
    if offset != "Z":
        if int(offset[1:3]) > 23 or int(offset[4:6]) > 59:
            raise Invalid(f"bad offset {value!r}")
    normalized = value.replace("Z", "+00:00")
    fraction = match.group(7)
    if fraction:
        normalized = normalized.replace("." + fraction, "." + (fraction + "000000")[:6])
    return datetime.datetime.fromisoformat(normalized)


def parse_date(value):
    if not isinstance(value, str) or not DATE.match(value):
        raise Invalid(f"bad date {value!r}")
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise Invalid(f"not a calendar date {value!r}") from None


def check_id(value):
    if is_int(value) or (isinstance(value, str) and value != ""):
        return str(value)
    raise Invalid(f"bad id {value!r}")


def check_enum(value, allowed):
    if not isinstance(value, str) or unicodedata.normalize("NFC", value) not in allowed:
        raise Invalid(f"{value!r} not in {sorted(allowed)}")
    return unicodedata.normalize("NFC", value)


def check_zone(value):
    if not isinstance(value, str):
        raise Invalid(f"bad zone {value!r}")
    try:
        zoneinfo.ZoneInfo(value)
    except Exception as error:
        raise Invalid(f"unknown time zone {value!r}") from error
    return value


def check_int(value, low=None, high=None):
    if not is_int(value):
        raise Invalid(f"not an integer: {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise Invalid(f"{value} outside {low}…{high}")
    return value


def check_number(value, low=None, high=None):
    if not is_number(value):
        raise Invalid(f"not a number: {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise Invalid(f"{value} outside {low}…{high}")
    return value


def check_string(value):
    if not isinstance(value, str):
        raise Invalid(f"not a string: {value!r}")
    return value


def check_bool(value):
    if not isinstance(value, bool):
        raise Invalid(f"not a boolean: {value!r}")
    return value


def string_list(value):
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise Invalid(f"not a list of strings: {value!r}")
    return value


def field(record, name, check, required=True):
    value = record.get(name, MISSING)
    if value is MISSING or value is None:
        if required:
            raise Invalid(f"field {name}: missing")
        return None
    try:
        return check(value)
    except Invalid as error:
        raise Invalid(f"field {name}: {error}") from None


def loan_record(record, quality):
    field(record, "id", check_id)
    field(record, "recorded_at", parse_timestamp)
    field(record, "mileage_km", lambda v: check_number(v, 0), required=False)
    for name in ("oil_level", "interior_cleanliness", "exterior_cleanliness"):
        field(record, name, lambda v: check_int(v, 0, 4))
    signature = field(record, "signature", lambda v: v if isinstance(v, list) else (_ for _ in ()).throw(Invalid("not a list")),
                      required=False)
    for segment in signature or []:
        if not isinstance(segment, list):
            raise Invalid("field signature: segment is not a list")
        for point in segment:
            if not (isinstance(point, list) and len(point) == 2 and all(is_number(c) for c in point)):
                raise Invalid(f"field signature: bad point {point!r}")
            if not all(0 <= c <= 400 for c in point):
                quality["signature_out_of_box"] += 1
    for impact in field(record, "impacts", lambda v: v if isinstance(v, list) else (_ for _ in ()).throw(Invalid("not a list")),
                        required=False) or []:
        if not isinstance(impact, dict):
            raise Invalid("field impacts: not an object")
        field(impact, "type", lambda v: check_enum(v, {"sinking", "impact", "scratch", "deepscratch"}))
        field(impact, "x", lambda v: check_number(v, 0, 400))
        field(impact, "y", lambda v: check_number(v, 0, 400))
    field(record, "photos", string_list, required=False)
    field(record, "comment", check_string, required=False)


def validate(kind, record, quality):
    """Raises Invalid when the record breaks a rule of SPEC §1 for its kind."""
    if not isinstance(record, dict):
        raise Invalid("record is not an object")
    if kind == "users":
        field(record, "id", check_id)
        field(record, "timezone", check_zone, required=False)
        field(record, "displayName", check_string, required=False)
        field(record, "createdAt", parse_timestamp, required=False)
    elif kind == "flows":
        for name, check in (("id", check_id), ("userId", check_id), ("date", parse_date), ("libelleAction", check_string)):
            field(record, name, check)
        field(record, "objectif", check_string, required=False)
        field(record, "etat", lambda v: check_enum(v, {"cree", "en_cours", "termine", "créé", "terminé"}))
        field(record, "energieRequise", lambda v: check_int(v, 1, 5), required=False)
        field(record, "tempsEstime", lambda v: check_number(v, 0), required=False)
        field(record, "tempsRealise", lambda v: check_number(v, 0), required=False)
        field(record, "contexte", string_list, required=False)
        field(record, "streakDay", lambda v: check_int(v, 0), required=False)
        for step in field(record, "etape", lambda v: v if isinstance(v, list) else (_ for _ in ()).throw(Invalid("not a list")),
                          required=False) or []:
            if not isinstance(step, dict):
                raise Invalid("field etape: step is not an object")
            field(step, "id", check_id, required=False)
            field(step, "libelle", check_string)
            field(step, "terminee", check_bool)
        field(record, "createdAt", parse_timestamp, required=False)
        field(record, "completedAt", parse_timestamp, required=False)
    elif kind == "tasks":
        for name, check in (("id", check_id), ("userId", check_id), ("date", parse_date), ("libelle", check_string)):
            field(record, name, check)
        field(record, "state", lambda v: check_enum(v, {"a_faire", "en_cours", "terminee"}))
        field(record, "contexte", string_list, required=False)
        field(record, "createdAt", parse_timestamp, required=False)
        field(record, "completedAt", parse_timestamp, required=False)
    elif kind == "focus_sessions":
        field(record, "id", check_id)
        field(record, "userId", check_id)
        field(record, "startedAt", parse_timestamp)
        total = field(record, "totalSeconds", lambda v: check_int(v, 1))
        field(record, "remainingSeconds", lambda v: check_int(v, 0, total))
        field(record, "endedAt", parse_timestamp, required=False)
    elif kind == "logins":
        field(record, "userId", check_id)
        field(record, "at", parse_timestamp)
    elif kind == "moods":
        field(record, "userId", check_id)
        field(record, "date", parse_date)
        field(record, "mood", lambda v: check_int(v, 1, 5))
        field(record, "note", check_string, required=False)
    elif kind == "services":
        field(record, "id", check_id)
        field(record, "name", check_string)
        field(record, "category", check_string)
        field(record, "price_cents", lambda v: check_int(v, 0))
        field(record, "old_price_cents", check_int, required=False)
        field(record, "duration_minutes", lambda v: check_int(v, 1))
    elif kind == "slots":
        field(record, "id", check_id)
        start = field(record, "starts_at", parse_timestamp)
        end = field(record, "ends_at", parse_timestamp)
        if end <= start:
            raise Invalid("field ends_at: not after starts_at")
        field(record, "capacity", lambda v: check_int(v, 0))
    elif kind == "customers":
        field(record, "id", check_id)
        field(record, "created_at", parse_timestamp)
        field(record, "postal_code", check_string, required=False)
    elif kind == "bookings":
        for name, check in (("id", check_id), ("customer_id", check_id), ("starts_at", parse_timestamp),
                            ("created_at", parse_timestamp)):
            field(record, name, check)
        field(record, "slot_id", check_id, required=False)
        field(record, "status", lambda v: check_enum(v, {"pending", "confirmed", "paid", "done", "cancelled", "no_show"}))
        lines = field(record, "services", lambda v: v if isinstance(v, list) and v else (_ for _ in ()).throw(Invalid("empty or not a list")))
        for line in lines:
            if not isinstance(line, dict):
                raise Invalid("field services: line is not an object")
            field(line, "service_id", check_id)
            field(line, "price_cents", check_int)
            field(line, "old_price_cents", check_int, required=False)
        field(record, "amount_cents", lambda v: check_int(v, 0))
        field(record, "paid_at", parse_timestamp, required=False)
        field(record, "cancelled_at", parse_timestamp, required=False)
        field(record, "postal_code", check_string, required=False)
    elif kind == "events":
        field(record, "id", check_id)
        field(record, "name", check_string)
        starts = field(record, "starts_on", parse_date)
        if field(record, "ends_on", parse_date) < starts:
            raise Invalid("field ends_on: before starts_on")
        field(record, "timezone", check_zone, required=False)
        opens = field(record, "opens_at", check_clock)
        if field(record, "closes_at", check_clock) <= opens:
            raise Invalid("field closes_at: not after opens_at")
    elif kind == "groups":
        field(record, "id", check_id)
        field(record, "event_id", check_id)
        field(record, "name", check_string)
    elif kind == "drivers":
        field(record, "id", check_id)
        field(record, "name", check_string)
        field(record, "company", check_string, required=False)
    elif kind == "assignments":
        for name in ("id", "event_id"):
            field(record, name, check_id)
        field(record, "group_id", check_id, required=False)
        field(record, "driver_id", check_id, required=False)
        field(record, "brand_name", check_string)
        field(record, "model_name", check_string, required=False)
        field(record, "license_plate_number", check_string)
        field(record, "planned_time_out", parse_timestamp)
        field(record, "planned_time_in", parse_timestamp)
        field(record, "cancelled", check_bool, required=False)
        for name in ("check_out_record", "check_in_record"):
            embedded = record.get(name)
            if embedded is not None:
                if not isinstance(embedded, dict):
                    raise Invalid(f"field {name}: not an object")
                try:
                    loan_record(embedded, quality)
                except Invalid as error:
                    raise Invalid(f"{name}: {error}") from None
    elif kind == "loan_records":
        loan_record(record, quality)
        field(record, "assignment_id", check_id)
        field(record, "kind", lambda v: check_enum(v, {"check_out", "check_in"}))


def check_clock(value):
    match = CLOCK.match(value) if isinstance(value, str) else None
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise Invalid(f"bad HH:MM {value!r}")
    return value


def validate_tree(root, failures):
    """Validates every file below root; returns {kind: [records]} and the layouts seen."""
    data = collections.defaultdict(list)
    layouts = {}
    quality = collections.Counter()
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            kind = kind_of(name)
            if kind is None:
                failures.append(f"{path}: kind cannot be told from the name")
                continue
            try:
                layout, records = read_records(path)
            except (Invalid, ValueError) as error:
                failures.append(f"{path}: unreadable: {error}")
                continue
            layouts[os.path.relpath(path, root)] = layout
            for index, record in enumerate(records):
                try:
                    validate(kind, record, quality)
                except Invalid as error:
                    identifier = record.get("id") if isinstance(record, dict) else None
                    failures.append(f"{path} record {index} (id {identifier}): {error}")
            data[kind].extend(records)
    return data, layouts, quality


# ---- the sample's scenario ---------------------------------------------------------------------

def expect(condition, message, failures, notes):
    (notes if condition else failures).append(("ok   " if condition else "FAIL ") + message)


def check_scenario(root, data, layouts, quality, failures, notes):
    users = data["users"]
    zones = collections.Counter(user.get("timezone") for user in users)
    expect(zones["Europe/Paris"] >= 2 and zones["America/New_York"] >= 2 and zones[None] >= 1,
           f"user zones {dict(zones)}", failures, notes)
    known = {str(user["id"]) for user in users}
    orphans = {str(task["userId"]) for task in data["tasks"]} - known
    expect(len(orphans) >= 1, f"task users without a users record: {sorted(orphans)}", failures, notes)
    dates = sorted({flow["date"] for flow in data["flows"]} | {task["date"] for task in data["tasks"]})
    expect(dates[0] >= "2026-10-01" and dates[-1] <= "2026-11-28" and "2026-10-25" in dates and "2026-11-01" in dates,
           f"habits dates {dates[0]} … {dates[-1]} include both DST days", failures, notes)
    etats = collections.Counter(flow["etat"] for flow in data["flows"])
    nfd = sum(1 for flow in data["flows"] if flow["etat"] != unicodedata.normalize("NFC", flow["etat"]))
    expect({"cree", "en_cours", "termine", "terminé"} <= set(etats) and nfd >= 1,
           f"flow states {dict(etats)}, decomposed accents {nfd}", failures, notes)
    contexts = {context for flow in data["flows"] for context in flow.get("contexte") or []}
    expect({"Fitness", "Lecture", "Méditation", "Travail", "Cuisine"} <= contexts, f"contexts {sorted(contexts)}", failures, notes)
    expect(any("streakDay" in flow for flow in data["flows"]), "some streakDay values", failures, notes)
    next_day = sum(1 for task in data["tasks"] if task.get("completedAt")
                   and parse_timestamp(task["completedAt"]).date() > parse_date(task["date"]))
    expect(next_day >= 1, f"tasks completed the day after their date: {next_day}", failures, notes)
    sessions = data["focus_sessions"]
    interrupted = sum(1 for s in sessions if s["remainingSeconds"] > 0)
    exact = sum(1 for s in sessions if s["totalSeconds"] - s["remainingSeconds"] == 900)
    expect(interrupted >= 1 and exact >= 2, f"focus: {interrupted} interrupted, {exact} with exactly 900 s", failures, notes)
    zone_of = {str(user["id"]): user.get("timezone") or "Europe/Paris" for user in users}
    early = sum(1 for login in data["logins"]
                if parse_timestamp(login["at"]).astimezone(zoneinfo.ZoneInfo(zone_of.get(str(login["userId"]), "Europe/Paris"))).hour < 10)
    expect(early >= 1, f"logins before 10:00 local: {early} of {len(data['logins'])}", failures, notes)
    expect({mood["mood"] for mood in data["moods"]} <= {1, 2, 3, 4, 5}, "moods 1–5", failures, notes)

    services = data["services"]
    expect(len(services) == 10 and any("old_price_cents" in s for s in services), "10 services, some old prices", failures, notes)
    slots = data["slots"]
    expect(min(s["capacity"] for s in slots) == 0 and max(s["capacity"] for s in slots) == 3, "slot capacities 0–3", failures, notes)
    expect(len(data["customers"]) >= 50 and all(k in data["customers"][0] for k in ("first_name", "email", "phone")),
           f"{len(data['customers'])} customers with contact fields", failures, notes)
    bookings = data["bookings"]
    statuses = collections.Counter(b["status"] for b in bookings)
    expect(len(bookings) >= 350 and set(statuses) == {"pending", "confirmed", "paid", "done", "cancelled", "no_show"},
           f"{len(bookings)} bookings, statuses {dict(statuses)}", failures, notes)
    expect(all(("cancelled_at" in b) == (b["status"] == "cancelled") for b in bookings), "cancelled_at exactly on cancelled bookings",
           failures, notes)
    expect(any(len(b["services"]) > 1 for b in bookings) and any("postal_code" in b for b in bookings),
           "multi-service bookings and postal-code overrides", failures, notes)
    expect(all(b["amount_cents"] == sum(line["price_cents"] for line in b["services"]) for b in bookings),
           "amount_cents = sum of line prices", failures, notes)
    leads = [(parse_timestamp(b["starts_at"]) - parse_timestamp(b["created_at"])).total_seconds() / 3600 for b in bookings]
    expect(min(leads) < 0 and any(0 < lead < 24 for lead in leads) and max(leads) > 24 * 14,
           f"lead times {min(leads):.1f} h … {max(leads):.0f} h", failures, notes)

    check_fleet(data, failures, notes)
    for name, layout in (("fleet/assignments.json", "wrapped"), ("bookings/bookings.json", "wrapped"),
                         ("habits/logins.jsonl", "jsonl"), ("fleet/loan_records.jsonl", "jsonl"), ("habits/tasks.json", "array")):
        expect(layouts.get(name) == layout, f"{name} is {layout}", failures, notes)
    expect(quality["signature_out_of_box"] >= 1, f"signature points outside the box: {quality['signature_out_of_box']}",
           failures, notes)
    size = sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(root) for name in names)
    expect(size < 2_000_000, f"sample size {size} bytes", failures, notes)


def check_fleet(data, failures, notes):
    events = {event["id"]: event for event in data["events"]}
    expect({"salon2016", "salon2017"} <= set(events), "events salon2016 and salon2017", failures, notes)
    mondial = events.get("salon2016", {})
    expect(mondial.get("name") == "Mondial de l'Automobile 2016" and mondial.get("opens_at") == "10:00", "Mondial details",
           failures, notes)
    assignments = [a for a in data["assignments"] if a["event_id"] == "salon2016"]
    drivers = {str(d["id"]) for d in data["drivers"]}
    ids = {str(a["id"]) for a in data["assignments"]}
    separate = collections.defaultdict(dict)
    for record in data["loan_records"]:
        separate[str(record["assignment_id"])][record["kind"]] = record
    unknown_records = [r for r in data["loan_records"] if str(r["assignment_id"]) not in ids]
    expect(len(unknown_records) == 1, f"loan records of unknown assignments: {len(unknown_records)}", failures, notes)
    known_records = len(data["loan_records"]) - len(unknown_records)
    expect(known_records >= 5, f"loan records of listed assignments: {known_records}", failures, notes)
    last_close = datetime.datetime.fromisoformat(mondial["ends_on"] + "T" + mondial["closes_at"] + ":00+02:00")

    cancelled = sum(1 for a in assignments if a.get("cancelled"))
    loans, no_shows, still_out, overnight, negative, unsigned, late, unknown_driver = [], 0, 0, 0, 0, 0, 0, 0
    for a in assignments:
        if a.get("cancelled"):
            continue
        out = a.get("check_out_record") or separate[str(a["id"])].get("check_out")
        back = separate[str(a["id"])].get("check_in") or a.get("check_in_record")
        if a.get("driver_id") is not None and str(a["driver_id"]) not in drivers:
            unknown_driver += 1
        if out is None and back is None:
            no_shows += 1
            continue
        start = parse_timestamp(out["recorded_at"])
        end = parse_timestamp(back["recorded_at"]) if back else last_close
        if back is None:
            still_out += 1
        else:
            if (end - parse_timestamp(a["planned_time_in"])).total_seconds() > 15 * 60:
                late += 1
            if start.astimezone(zoneinfo.ZoneInfo("Europe/Paris")).date() != end.astimezone(zoneinfo.ZoneInfo("Europe/Paris")).date():
                overnight += 1
            if "mileage_km" in back and "mileage_km" in out and back["mileage_km"] < out["mileage_km"]:
                negative += 1
            if not any(len(segment) >= 2 for segment in back.get("signature") or []):
                unsigned += 1
        plate = re.sub(r"[\s-]", "", a["license_plate_number"].upper())
        loans.append((plate, start, end))
    overlaps = 0
    by_plate = collections.defaultdict(list)
    for plate, start, end in loans:
        by_plate[plate].append((start, end))
    for intervals in by_plate.values():
        intervals.sort()
        for i in range(len(intervals)):
            for j in range(i + 1, len(intervals)):
                if intervals[j][0] < intervals[i][1] and intervals[i][0] < intervals[j][1]:
                    overlaps += 1
    variants = len({a["license_plate_number"] for a in assignments}) - len({re.sub(r"[\s-]", "", a["license_plate_number"].upper()) for a in assignments})
    plates = len(by_plate)
    expect(25 <= plates <= 35 and 250 <= len(assignments) <= 350, f"Mondial: {plates} cars, {len(assignments)} assignments",
           failures, notes)
    expect(cancelled == 2, f"cancelled assignments: {cancelled}", failures, notes)
    expect(no_shows == 2, f"no-shows: {no_shows}", failures, notes)
    expect(still_out == 1, f"loans still out: {still_out}", failures, notes)
    expect(overnight == 1, f"loans across midnight: {overnight}", failures, notes)
    expect(overlaps == 1, f"overlapping pairs: {overlaps}", failures, notes)
    expect(negative == 1, f"negative km: {negative}", failures, notes)
    expect(unsigned == 1, f"check-ins without signature: {unsigned}", failures, notes)
    expect(unknown_driver == 1, f"unknown drivers: {unknown_driver}", failures, notes)
    expect(late >= 5, f"late returns: {late}", failures, notes)
    expect(variants == 1, f"plates written another way: {variants}", failures, notes)
    impacts = [i for a in assignments for r in (a.get("check_in_record"), a.get("check_out_record")) if r for i in r.get("impacts") or []]
    expect({i["type"] for i in impacts} == {"sinking", "impact", "scratch", "deepscratch"}, "all impact types", failures, notes)


# ---- running the generator ---------------------------------------------------------------------

def run(binary, *arguments):
    result = subprocess.run([binary, *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{binary} {' '.join(arguments)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def same_tree(left, right):
    comparison = filecmp.dircmp(left, right)
    if comparison.left_only or comparison.right_only:
        return False
    _, mismatch, errors = filecmp.cmpfiles(left, right, comparison.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(os.path.join(left, d), os.path.join(right, d)) for d in comparison.common_dirs)


def check_command_line(binary, failures, notes):
    """--help prints usage and exits 0; a bad argument is one line on stderr and exit 2."""
    for mode in ("sample", "generate", "scale"):
        result = subprocess.run([binary, mode, "--help"], capture_output=True, text=True)
        expect(result.returncode == 0 and "USAGE: report-sample " + mode in result.stdout, f"{mode} --help", failures, notes)
    bad = [[], ["bogus"], ["sample"], ["sample", "--out", ""], ["sample", "--out", "x", "--seed", "abc"],
           ["generate", "--kind", "nope", "--count", "3", "--out", "x.json"],
           ["generate", "--kind", "tasks", "--count", "-1", "--out", "x.json"],
           ["scale", "--profile", "cars", "--out", "x"], ["scale", "--profile", "fleet", "--out", "x", "--scale", "0"]]
    for arguments in bad:
        result = subprocess.run([binary, *arguments], capture_output=True, text=True, cwd=tempfile.gettempdir())
        lines = result.stderr.strip().splitlines()
        expect(result.returncode == 2 and len(lines) == 1 and lines[0].startswith("report-sample: error: "),
               f"usage error exits 2 with one line: {' '.join(arguments) or '(no arguments)'}", failures, notes)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/report-sample")
    parser.add_argument("--sample-dir", default="SampleData", help="the committed sample to compare with")
    options = parser.parse_args()
    failures, notes = [], []
    options.binary = os.path.abspath(options.binary)
    check_command_line(options.binary, failures, notes)
    with tempfile.TemporaryDirectory() as temporary:
        first, second, other = (os.path.join(temporary, name) for name in ("first", "second", "other"))
        run(options.binary, "sample", "--out", first)
        run(options.binary, "sample", "--out", second)
        run(options.binary, "sample", "--out", other, "--seed", "7")
        expect(same_tree(first, second), "same seed, byte-identical sample", failures, notes)
        expect(not same_tree(first, other), "another seed, another sample", failures, notes)
        if os.path.isdir(options.sample_dir):
            expect(same_tree(first, options.sample_dir), f"{options.sample_dir} is what the generator writes", failures, notes)
        data, layouts, quality = validate_tree(first, failures)
        check_scenario(first, data, layouts, quality, failures, notes)
        other_data, _, other_quality = validate_tree(other, failures)
        check_scenario(other, other_data, layouts, other_quality, failures, [])

        for kind in KINDS:
            for extension in (".json", ".jsonl"):
                path = os.path.join(temporary, "generated", kind + extension)
                run(options.binary, "generate", "--kind", kind, "--count", "120", "--out", path, "--seed", "3")
                layout, records = read_records(path)
                expect(len(records) == 120, f"generate {kind}{extension}: {len(records)} records ({layout})", failures, notes)
                validate_tree(os.path.dirname(path), failures)
                os.remove(path)
        for profile in ("habits", "bookings", "fleet"):
            folders = [os.path.join(temporary, f"{profile}-{n}") for n in (1, 2)]
            for folder in folders:
                run(options.binary, "scale", "--profile", profile, "--scale", "0.01", "--out", folder)
            counts = {kind: len(records) for kind, records in validate_tree(folders[0], failures)[0].items()}
            expect(same_tree(*folders), f"scale {profile} 0.01 is deterministic and valid: {counts}", failures, notes)
    print("\n".join(notes))
    if failures:
        print(f"\n{len(failures)} failure(s):")
        print("\n".join(failures[:50]))
        return 1
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
