#!/usr/bin/env python3
"""Runs Reel's tests: shards side by side, then the suites that need the machine alone.

usage: run-tests.py [--tier default|long] [--jobs N] [--serial-list FILE] [--report-dir DIR]

Default tier:
1. Every suite not named in the serial list (Tests/serial-suites.txt) runs in one of N test
   processes side by side (N = --jobs, default cores + 1), each process one test at a time.
   Suites are dealt to the processes longest first, by the time each took in the last run
   (kept in .build/reel-test-times.json; on a fresh clone Tests/suite-times.json, the seed),
   so the processes end together. Separate processes,
   not Swift Testing's in-process parallelism: many tests wait on a child process with a
   blocking call, and in one process those calls hold the two threads of Swift's cooperative
   pool, starving every other test (and its deadlines) behind them.
2. The suites named in the list run one at a time in their lane, the lanes side by side: a
   browser in one, real-time capture in the other, never two of a kind at once.
A test that the default tier skips must be a long-tier test (its function name ends in
`LongTier`), so no skip hides a test from both tiers.

Long tier (`--tier long`, REEL_TEST_LONG=1): only the tests whose function name ends in
`LongTier`, one at a time. Every one of them must run (none skipped).

Before it starts, every name in the serial list must be a suite that exists, so a renamed suite
cannot drop out of the serial phase unnoticed. At the end it prints the ten suites that took
longest and one closing line, 'tests: N passed, N failed, N skipped', over every process. It
exits 0 only when every process passed. The tests must be built (`swift build --build-tests`).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict

SLOWEST = 10
LONG_TIER = re.compile(r"LongTier\(")
# Each suite's seconds in the last run here; on a fresh clone, the committed seed.
TIMES_FILE = ".build/reel-test-times.json"
SEED_TIMES_FILE = "Tests/suite-times.json"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", choices=["default", "long"], default="default")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("REEL_TEST_JOBS") or (os.cpu_count() or 2) + 1),
                        help="test processes side by side in the default tier (default: $REEL_TEST_JOBS, else cores + 1)")
    parser.add_argument("--serial-list", default="Tests/serial-suites.txt",
                        help="the suites that run alone (default: Tests/serial-suites.txt)")
    parser.add_argument("--report-dir", default=None, help="where the logs and xUnit files go (default: a temporary folder)")
    return parser.parse_args()


def say(text):
    print(f"run-tests: {text}", flush=True)


def test_binary():
    folder = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()
    path = os.path.join(folder, "ReelPackageTests.xctest")
    if not os.access(path, os.X_OK):
        raise SystemExit(f"run-tests: {path} is missing: build the tests first (swift build --build-tests)")
    return path


def read_serial_list(path):
    """The lanes of the list: {lane: [suite]}. A '[name]' line starts a lane; each other line
    names one 'Module.Suite'; '#' starts a comment."""
    lanes, lane = {}, "alone"
    with open(path) as listing:
        for number, line in enumerate(listing, 1):
            name = line.split("#", 1)[0].strip()
            if not name:
                continue
            header = re.fullmatch(r"\[([a-z][a-z0-9-]*)\]", name)
            if header:
                lane = header.group(1)
            elif re.fullmatch(r"[A-Za-z_]\w*\.[A-Za-z_]\w*", name):
                lanes.setdefault(lane, []).append(name)
            else:
                raise SystemExit(f"run-tests: {path}:{number}: '{name}' is neither a [lane] nor a Module.Suite name")
    return lanes


def listed_tests(binary):
    """Every test's id, 'Module.Suite/test()', as the test binary lists them."""
    listing = subprocess.run([binary, "--testing-library", "swift-testing", "--list-tests"], capture_output=True, text=True)
    if listing.returncode != 0:
        raise SystemExit(f"run-tests: listing the tests failed ({listing.returncode}):\n{listing.stderr}")
    return [line.strip() for line in listing.stdout.splitlines() if "/" in line]


def pattern(names):
    """A --filter expression matching the tests of exactly these suites."""
    return "|".join(re.escape(name) + "/" for name in names)


def read_times():
    for path in (TIMES_FILE, SEED_TIMES_FILE):
        if os.path.exists(path):
            with open(path) as times:
                return json.load(times)
    return {}


def deal(suites, jobs, times):
    """Suites dealt to `jobs` shards, longest first to the shard with the least time so far."""
    shards = [[] for _ in range(jobs)]
    load = [0.0] * jobs
    for suite in sorted(suites, key=lambda name: (-times.get(name, 1.0), name)):
        emptiest = load.index(min(load))
        shards[emptiest].append(suite)
        load[emptiest] += times.get(suite, 1.0)
    return [shard for shard in shards if shard]


class Shard:
    """One test process; its output goes to a log, and its suites' ends and failures to the console."""

    def __init__(self, name, command, log_path, environment):
        self.name, self.log_path = name, log_path
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        errors="replace", env=environment)
        self.reader = threading.Thread(target=self.pump, daemon=True)
        self.reader.start()

    def pump(self):
        for line in self.process.stdout:
            self.log.write(line)
            if line.startswith(("✔ Suite", "✘")) or "Test run with" in line:
                print(f"[{self.name}] {line}", end="", flush=True)
        self.log.close()

    def wait(self):
        status = self.process.wait()
        self.reader.join()
        return status


def run_shards(binary, filters, report_dir, environment, prefix):
    """Runs one test process per filter, side by side; [(status, xunit path, shard)]."""
    running = []
    for index, expression in enumerate(filters):
        name = f"{prefix}-{index + 1}"
        xunit = os.path.join(report_dir, f"{name}.xml")
        command = [binary, "--testing-library", "swift-testing", "--no-parallel", "--filter", expression,
                   "--xunit-output", xunit]
        running.append((Shard(name, command, os.path.join(report_dir, f"{name}.log"), environment), xunit))
    return [(shard.wait(), xunit, shard) for shard, xunit in running]


def read_results(xunit):
    """[(suite, test, seconds, outcome)] from one Swift Testing xUnit file."""
    if not os.path.exists(xunit):
        return []
    results = []
    for case in ElementTree.parse(xunit).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            outcome = "failed"
        elif case.find("skipped") is not None:
            outcome = "skipped"
        else:
            outcome = "passed"
        results.append((case.get("classname", "?"), case.get("name", "?"), float(case.get("time") or 0), outcome))
    return results


def failure_details(shard):
    """The failure lines of a shard's log, each with the lines that explain it."""
    lines, keep = [], False
    with open(shard.log_path, errors="replace") as log:
        for line in log:
            if line.startswith("✘"):
                keep = True
            elif not line.startswith("↳"):
                keep = False
            if keep:
                lines.append(line)
    return lines


def report(results, wall_seconds):
    seconds = defaultdict(float)
    for suite, _, value, _ in results:
        seconds[suite] += value
    print(f"\nThe {SLOWEST} slowest suites (seconds of their tests; {wall_seconds:.0f} s in all):")
    for suite, value in sorted(seconds.items(), key=lambda item: -item[1])[:SLOWEST]:
        print(f"  {value:8.1f} s  {suite}")
    return seconds


def check_skips(results, tier):
    """The default tier skips only long-tier tests; the long tier skips nothing."""
    wrong = []
    for suite, test, _, outcome in results:
        if tier == "default" and outcome == "skipped" and not LONG_TIER.search(test):
            wrong.append(f"{suite}/{test} was skipped but is in no tier (a long-tier test's name ends in LongTier)")
        if tier == "long" and outcome == "skipped":
            wrong.append(f"{suite}/{test} is named as a long-tier test but did not run")
    return wrong


def main():
    arguments = parse_arguments()
    binary = test_binary()
    report_dir = arguments.report_dir or tempfile.mkdtemp(prefix="reel-tests-")
    os.makedirs(report_dir, exist_ok=True)
    say(f"logs and xUnit files in {report_dir}")
    tests = listed_tests(binary)
    suites = sorted({test.split("/", 1)[0] for test in tests})
    environment = dict(os.environ, NO_COLOR="1")
    started = time.monotonic()
    if arguments.tier == "long":
        environment["REEL_TEST_LONG"] = "1"
        long_tests = [test for test in tests if LONG_TIER.search(test)]
        say(f"long tier: {len(long_tests)} tests, one at a time")
        outcomes = run_shards(binary, [LONG_TIER.pattern], report_dir, environment, "long")
    else:
        lanes = read_serial_list(arguments.serial_list)
        serial = [suite for names in lanes.values() for suite in names]
        unknown = sorted(set(serial) - set(suites))
        if unknown:
            raise SystemExit(f"run-tests: {arguments.serial_list} names suites that do not exist: {', '.join(unknown)}")
        times = read_times()
        shards = deal([suite for suite in suites if suite not in serial], arguments.jobs, times)
        say(f"default tier: {len(suites) - len(serial)} suites in {len(shards)} processes side by side, "
            f"then {len(serial)} suites in {len(lanes)} lanes ({', '.join(lanes)}), each lane one suite at a time")
        outcomes = run_shards(binary, [pattern(shard) for shard in shards], report_dir, environment, "shard")
        outcomes += run_shards(binary, [pattern(names) for names in lanes.values()], report_dir, environment, "lane")
    results = [result for _, xunit, _ in outcomes for result in read_results(xunit)]
    seconds = report(results, time.monotonic() - started)
    if arguments.tier == "default":
        previous = read_times()
        previous.update({suite: round(value, 3) for suite, value in seconds.items()})
        with open(TIMES_FILE, "w") as times_file:
            json.dump(previous, times_file, indent=0, sort_keys=True)
    problems = check_skips(results, arguments.tier)
    for status, xunit, shard in outcomes:
        if status != 0:
            print(f"\n{shard.name} exited {status} (log: {shard.log_path}):")
            print("".join(failure_details(shard)) or "  no failing test recorded: read the log's end", end="")
    for problem in problems:
        print(f"run-tests: {problem}")
    count = defaultdict(int)
    for _, _, _, outcome in results:
        count[outcome] += 1
    print(f"\ntests: {count['passed']} passed, {count['failed']} failed, {count['skipped']} skipped", flush=True)
    return 0 if not problems and all(status == 0 for status, _, _ in outcomes) and count["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
