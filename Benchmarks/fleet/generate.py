#!/usr/bin/env python3
"""Writes a large fleet export set for benchmarking `report import` and the fleet report.

Default size (SPEC's performance target): 2,000 cars x 30 days, 300,000 assignments with their
check-out and check-in records embedded. Deterministic for a given seed.

    python3 Benchmarks/fleet/generate.py OUT_DIR [--cars 2000] [--days 30] [--per-day 5] [--seed 1]

Writes OUT_DIR/events.json, groups.json, drivers.json and assignments.jsonl.
"""
import argparse
import datetime as dt
import json
import os
import random
from zoneinfo import ZoneInfo

PARIS = ZoneInfo("Europe/Paris")
TYPES = ["sinking", "impact", "scratch", "deepscratch"]


def stamp(moment):
    return moment.isoformat(timespec="seconds")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--cars", type=int, default=2000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--per-day", type=int, default=5)
    parser.add_argument("--drivers", type=int, default=5000)
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    first = dt.date(2016, 10, 1)
    last = first + dt.timedelta(days=args.days - 1)
    with open(os.path.join(args.out, "events.json"), "w") as f:
        json.dump([{"id": "bench", "name": "Benchmark show", "starts_on": first.isoformat(),
                    "ends_on": last.isoformat(), "timezone": "Europe/Paris", "opens_at": "09:00",
                    "closes_at": "19:00"}], f)
    with open(os.path.join(args.out, "groups.json"), "w") as f:
        json.dump([{"id": f"g{n}", "event_id": "bench", "name": f"Group {n}"} for n in range(args.groups)], f)
    with open(os.path.join(args.out, "drivers.json"), "w") as f:
        json.dump([{"id": n, "name": f"Driver {n}", "company": f"Company {n % 97}"} for n in range(args.drivers)], f)

    record_id = 0
    assignment_id = 0
    slot_hours = 10 / args.per_day
    with open(os.path.join(args.out, "assignments.jsonl"), "w") as f:
        for car in range(args.cars):
            plate = f"BE-{car:04d}-NC"
            group = f"g{car % args.groups}"
            odometer = rng.randint(100, 20000)
            marks = [(rng.choice(TYPES), rng.uniform(0, 400), rng.uniform(0, 400)) for _ in range(rng.randint(0, 3))]
            for day_offset in range(args.days):
                day = first + dt.timedelta(days=day_offset)
                for slot in range(args.per_day):
                    assignment_id += 1
                    start = dt.datetime(day.year, day.month, day.day, 9, tzinfo=PARIS) + dt.timedelta(hours=slot * slot_hours)
                    planned_out, planned_in = start, start + dt.timedelta(hours=slot_hours * 0.8)
                    record = {"id": assignment_id, "event_id": "bench", "group_id": group,
                              "driver_id": rng.randrange(args.drivers), "brand_name": "Peugeot", "model_name": "3008",
                              "license_plate_number": plate, "planned_time_out": stamp(planned_out),
                              "planned_time_in": stamp(planned_in)}
                    roll = rng.random()
                    if roll < 0.03:
                        record["cancelled"] = True
                    elif roll < 0.05:
                        pass  # a no-show
                    else:
                        def loan_record(moment, km):
                            nonlocal record_id
                            record_id += 1
                            return {"id": f"r{record_id}", "recorded_at": stamp(moment), "mileage_km": km,
                                    "oil_level": rng.randint(2, 4), "interior_cleanliness": rng.randint(2, 4),
                                    "exterior_cleanliness": rng.randint(1, 4),
                                    "signature": [[[10, 10], [rng.uniform(20, 390), rng.uniform(20, 390)]]],
                                    "impacts": [{"type": t, "x": round(x, 1), "y": round(y, 1)} for t, x, y in marks]}
                        out_at = planned_out + dt.timedelta(minutes=rng.randint(-5, 10))
                        record["check_out_record"] = loan_record(out_at, odometer)
                        odometer += rng.randint(5, 80)
                        last_slot = day_offset == args.days - 1 and slot == args.per_day - 1
                        if not (last_slot and rng.random() < 0.3):
                            if rng.random() < 0.1:
                                marks.append((rng.choice(TYPES), rng.uniform(0, 400), rng.uniform(0, 400)))
                            marks = [(t, min(400, max(0, x + rng.uniform(-4, 4))), min(400, max(0, y + rng.uniform(-4, 4))))
                                     for t, x, y in marks]
                            in_at = planned_in + dt.timedelta(minutes=rng.randint(-10, 40))
                            record["check_in_record"] = loan_record(in_at, odometer)
                    f.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
