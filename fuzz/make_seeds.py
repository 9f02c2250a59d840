#!/usr/bin/env python3
"""Writes the committed seed corpus of fuzz/corpus/ from SampleData/ plus hand-written edge cases.

Run from the repository root: `python3 fuzz/make_seeds.py`. Deterministic: the same SampleData
gives the same files (named by the SHA-1 of their content, as libFuzzer names its own). It adds
and never deletes: the committed corpus also holds inputs kept from fuzz runs (the `records`
target's 1,000-odd units, and finds kept as seeds), which a rewrite would lose. Delete a seed by
hand. The working corpus that grows lives in .build/fuzz/corpus-<target>/.
"""
import hashlib
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")

# The modules' kinds in registration order (habits, bookings, fleet): the first byte of a `records` input picks the kind (modulo 15).
KINDS = ["users", "flows", "tasks", "focus_sessions", "logins", "moods",
         "services", "slots", "customers", "bookings",
         "events", "groups", "drivers", "assignments", "loan_records"]
FILES = {
    "users": "habits/users.json", "flows": "habits/flows.json", "tasks": "habits/tasks.json",
    "focus_sessions": "habits/focus_sessions.json", "logins": "habits/logins.jsonl",
    "moods": "habits/moods.json", "services": "bookings/services.json", "slots": "bookings/slots.json",
    "customers": "bookings/customers.json", "bookings": "bookings/bookings.json",
    "events": "fleet/events.json", "groups": "fleet/groups.json", "drivers": "fleet/drivers.json",
    "assignments": "fleet/assignments.json", "loan_records": "fleet/loan_records.jsonl",
}


def record_lines(path):
    """The records of a sample file, as the bytes written (the samples hold one record a line)."""
    records = []
    with open(os.path.join(ROOT, "SampleData", path), "rb") as handle:
        for raw in handle:
            line = raw.strip().rstrip(b",")
            if line.startswith(b"{") and line.endswith(b"}") and not line.startswith(b'{"exported_at"'):
                records.append(line)
    return records


def pick(records):
    """A few different records: the first, the shortest, the longest, and one in the middle;
    plus, when there are any, one the importer rejects (the samples hold deliberate mistakes)."""
    chosen = [records[0], min(records, key=len), max(records, key=len), records[len(records) // 2]]
    unique = []
    for record in chosen:
        if record not in unique:
            unique.append(record)
    return unique


WRITTEN = {}  # target -> [written, of which new]


def write(target, content):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha1(content).hexdigest())
    counts = WRITTEN.setdefault(target, [0, 0])
    counts[0] += 1
    if not os.path.exists(path):
        counts[1] += 1
    with open(path, "wb") as handle:
        handle.write(content)


def records_seeds():
    for index, kind in enumerate(KINDS):
        for record in pick(record_lines(FILES[kind])):
            write("records", bytes([index]) + record + b"\n")
    edge = {
        "flows": [
            # `terminé` with a combining accent; steps; null optional fields.
            '{"id":"f1","userId":7,"date":"2016-02-29","libelleAction":"x","etat":"termine\\u0301",'
            '"etape":[{"libelle":"a","terminee":true},{"id":2,"libelle":"b","terminee":false}],'
            '"tempsRealise":1e2,"energieRequise":null,"contexte":[]}',
            '{"id":"f1","id":"f2"}',
        ],
        "focus_sessions": ['{"id":1,"userId":1,"startedAt":"2026-11-28T07:55:00.250Z","totalSeconds":9223372036854775807,'
                           '"remainingSeconds":9223372036854775807}'],
        "bookings": ['{"id":"b","customer_id":"c","starts_at":"9999-12-31T23:59:59.999999-23:59",'
                     '"created_at":"0001-01-01T00:00+23:59","status":"paid","services":[{"service_id":1,'
                     '"price_cents":-0,"old_price_cents":1e999}],"amount_cents":0}'],
        "events": ['{"id":"e","name":"n","starts_on":"2016-10-01","ends_on":"2016-10-01",'
                   '"timezone":"America/Argentina/Buenos_Aires","opens_at":"00:00","closes_at":"23:59"}',
                   '{"id":"e","name":"n","starts_on":"2016-10-01","ends_on":"2016-10-01",'
                   '"timezone":"../../../etc/passwd","opens_at":"10:00","closes_at":"20:00"}'],
        "assignments": ['{"id":1,"event_id":"e","brand_name":"B","license_plate_number":" -\\u2011\\u00a0",'
                        '"planned_time_out":"2016-10-01T10:00Z","planned_time_in":"2016-10-01T12:00Z",'
                        '"check_out_record":{"id":5,"recorded_at":"2016-10-01T10:00:00Z","oil_level":4,'
                        '"interior_cleanliness":0,"exterior_cleanliness":0,"signature":[[[0,0],[400.0,400]],[[-1e308,1]]],'
                        '"impacts":[{"type":"scratch","x":0,"y":400}],"photos":["u"]}}'],
        "loan_records": ['{"id":5,"assignment_id":1,"kind":"check_in","recorded_at":"2016-10-01T10:00:00Z",'
                         '"mileage_km":-0.0,"oil_level":4,"interior_cleanliness":4,"exterior_cleanliness":4,'
                         '"signature":[[[1,2,3]]]}'],
        "users": ['["not", "an", "object"]', '{"id":""}', '{"id":"' + "é" * 80 + '"}'],
    }
    for kind, records in edge.items():
        for record in records:
            write("records", bytes([KINDS.index(kind)]) + record.encode() + b"\n")


def json_reader_seeds():
    """The start of each sample file (its layout: array, wrapper or JSON Lines) cut after a few
    records and closed again, read with buffer sizes from 1 to 32 (the first byte)."""
    for number, (kind, path) in enumerate(sorted(FILES.items())):
        with open(os.path.join(ROOT, "SampleData", path), "rb") as handle:
            lines = handle.read().split(b"\n")
        head = b"\n".join(lines[:4])
        if path.endswith(".jsonl"):
            content = head + b"\n"
        elif lines[0].startswith(b"{"):
            content = head.rstrip(b",") + b"\n]}\n"
        else:
            content = head.rstrip(b",") + b"\n]\n"
        write("json_reader", bytes([number % 32]) + content)
    edge = [
        b"",
        b"   \n\t ",
        b"\xef\xbb\xbf[]",
        b"\xef\xbb\xbf{\"a\":1}\n{\"b\":2}\n",
        b'{"exported_at":"x","n":1,"items":[{"id":1},{"id":2}],"t":true}',
        b'{"id":1}\r\n\r\n{"id":2}\n[1,2]\nnot json\n{"x":"\\ud83d\\ude00 \\u00e9 \xc3\xa9 \xf0\x9f\x98\x80"}\n',
        b'[1,-0,1.5e-3,12345678901234567890,-9223372036854775808,1e999,0.1e+22,true,false,null,"\\"\\\\\\/\\b\\f\\n\\r\\t"]',
        b'[' * 600 + b']' * 600,
        b'["\xed\xa0\x80", "\xc0\xaf"]',
        b'[{"a":[{"b":{}}]},]',
        b'{"a":[1],"b":[2]}',
        b'{"a":"\\ud800"}\n{"a":01}\n{"a":1.}\n{"a":"unterminated\n',
        # Layout edges of issue 15: metadata objects, a document followed by text, object lines,
        # lone values, UTF-16 and UTF-32, a control byte after a backslash.
        b'{\n "meta":{"v":{"w":1}},\n "tasks":[{"id":1}],\n "paging":{"next":null}\n}\n',
        b'{"tasks":[{"id":1}]}\nthe end\n',
        b'{"a":[{"id":1}]}\n\n{"a":[]}\n',
        b'42\n',
        b'\xff\xfe[\x00{\x00}\x00]\x00',
        b'\x00\x00\x00[\x00\x00\x00]',
        b'["a\\\x09b"]\n',
    ]
    for number, content in enumerate(edge):
        write("json_reader", bytes([number * 7 % 32]) + content)


def timestamps_seeds():
    seen = set()
    pattern = re.compile(rb'"(\d{4}-\d{2}-\d{2}(?:T[0-9:.]+(?:Z|[+-]\d{2}:\d{2}))?|\d{2}:\d{2})"')
    for path in sorted(FILES.values()):
        with open(os.path.join(ROOT, "SampleData", path), "rb") as handle:
            for match in pattern.finditer(handle.read()):
                value = match.group(1)
                shape = re.sub(rb"\d", b"0", value)
                if shape not in seen:  # one example of each spelling
                    seen.add(shape)
                    write("timestamps", value)
    for value in ["2016-10-01T09:12:00+02:00", "2026-11-28T07:55:00.250Z", "2016-02-29", "2016-02-30",
                  "0001-01-01T00:00+23:59", "9999-12-31T23:59:59.9999999999-23:59", "2016-10-01 09:12:00Z",
                  "2016-10-01T09:12:00+0200", "2016-10-01T09:12:00z", "2016-10-01T24:00Z", "23:59", "24:00",
                  "2016-10-01T09:12:60Z", "2016-10-01T09:12:00.Z", "٢٠١٦-١٠-٠١"]:
        write("timestamps", value.encode())


def connection_strings_seeds():
    # Byte 0 picks the prefix (fuzz/targets/connection_strings.swift): 0 postgresql://, 1 postgres://,
    # 2 "host=db password=", 3 "user=u password='", 4 none, 5 mysql://, 6 sqlite://, 7 postgresql://u:
    seeds = [
        (0, "report:Tr0ub4dor@3xyz@127.0.0.1:5432/report"),
        (0, "weird:p@ss/w:rd%41@127.0.0.1:54411/report"),
        (0, "report:my@secret:word@db.example:5432/report"),
        (0, "report:s3cr%40t@db.example:5432/report?sslmode=require"),
        (0, "u:pw@db:5432/report?application_name=a@b"),
        (0, "u:pa?ss@x@127.0.0.1:1/db"),
        (1, "db/report?user=a&password=hunter2&sslmode=require"),
        (1, "h/db?password=a&b&user=me"),
        (2, "s3cr3t-pw dbname=report"),
        (2, "a b c dbname=report"),
        (3, "a b\\'c d' dbname=report"),
        (4, "host=/tmp port=5432 user=report password=x dbname=report"),
        (4, "report.sqlite"),
        (5, "report:hunter2@db/report"),
        (6, "/var/lib/report.sqlite"),
        (7, "50%off@db.invalid/db"),
        (7, "\u00e9t\u00e9\U0001f600@%2Ftmp%2Fsocket/db"),
        (0, "R!x:\0\0\0@s\0"),  # NULs: libpq reads up to the first one; Swift reads them all
        (7, "***@b"),  # the password is the mask itself (CI's fuzz run of 2026-12-08)
        (7, "*@b@b"),
    ]
    for selector, text in seeds:
        write("connection_strings", bytes([selector]) + text.encode())


if __name__ == "__main__":
    records_seeds()
    json_reader_seeds()
    timestamps_seeds()
    connection_strings_seeds()
    for target in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, target))
        size = sum(os.path.getsize(os.path.join(CORPUS, target, name)) for name in files)
        written, new = WRITTEN.get(target, [0, 0])
        print(f"fuzz/corpus/{target}: {len(files)} files, {size} bytes ({written} written by this script, {new} new)")
