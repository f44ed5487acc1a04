#!/usr/bin/env python3
"""Runs the test command and turns a hang into a short, explained failure.

usage: test-watchdog.py [--silence SECONDS] -- COMMAND [ARG...]

The command's output (standard output and error, merged) is passed through line by line,
line-buffered at the source (stdbuf), so the last line shown is the last thing the tests
printed, not the end of a 4 KiB buffer. When nothing is printed for SECONDS (default: the
REEL_TEST_SILENCE environment variable, else 600; no single test runs that long), it prints
every thread's stack of every process under the command (gdb, names demangled by
swift-demangle), kills them all and exits 124. Otherwise it exits with the command's status.

Why: a test that hangs used to hold the whole run until CI's own limit cut it off, with the
last few KiB of output lost in the test runner's buffer, so nobody could tell which test hung
or where.

At the end it also says how many threads and how much memory the largest process under the
command peaked at (sampled every 5 s): a test binary that keeps growing leaks (a recorder
that was never released kept x264's threads: 140 threads and 1.9 GB by the end of a run),
and past about 250 blocked threads Swift's task pool stops getting new ones, which hangs.
"""

import argparse
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time

GDB_SECONDS = 120
STACK_FRAMES = 30


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--silence", type=float, default=float(os.environ.get("REEL_TEST_SILENCE") or 600),
                        help="seconds without output that count as a hang (default: $REEL_TEST_SILENCE or 600)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    arguments = parser.parse_args()
    if arguments.command[:1] == ["--"]:
        arguments.command = arguments.command[1:]
    if not arguments.command:
        parser.error("give the command after --")
    if arguments.silence <= 0:
        parser.error("--silence must be a positive number of seconds")
    return arguments


def say(text):
    sys.stdout.write(f"test-watchdog: {text}\n")
    sys.stdout.flush()


def children_by_parent():
    """Every process's children, from /proc (pid -> [child pid])."""
    tree = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                # The command name is in parentheses and may hold spaces: the parent follows the last ')'.
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        tree.setdefault(parent, []).append(int(entry))
    return tree


def descendants(root):
    tree = children_by_parent()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        for child in tree.get(pid, []):
            found.append(child)
            todo.append(child)
    return found


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode(errors="replace").strip()[:300]
    except OSError:
        return "(gone)"


def stacks(pid):
    """Every thread's stack of `pid` (gdb), demangled; a sentence when that cannot be had."""
    gdb = shutil.which("gdb")
    if gdb is None:
        return "  (no gdb here: install it to see where a hang is)"
    try:
        run = subprocess.run([gdb, "-batch", "-nx", "-p", str(pid), "-ex", "set pagination off",
                              "-ex", f"thread apply all bt {STACK_FRAMES}"],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=GDB_SECONDS)
    except subprocess.TimeoutExpired:
        return f"  (gdb took more than {GDB_SECONDS} s)"
    lines = [line for line in run.stdout.splitlines() if line.startswith("Thread ") or line.startswith("#")]
    if not lines:
        return "  (gdb could not read it: " + " | ".join(run.stderr.strip().splitlines()[-2:]) + ")"
    text = "\n".join(lines)
    demangle = shutil.which("swift-demangle")
    if demangle:
        try:
            text = subprocess.run([demangle, "--simplified"], input=text, capture_output=True, text=True,
                                  timeout=60).stdout or text
        except subprocess.TimeoutExpired:
            pass
    return text


class Peak:
    """The most threads and the most memory any process under the command had."""

    def __init__(self):
        self.threads = (0, "")
        self.rss_kib = (0, "")
        self.sampled = 0.0

    def sample(self, root):
        now = time.monotonic()
        if now - self.sampled < 5:
            return
        self.sampled = now
        for pid in [root] + descendants(root):
            try:
                with open(f"/proc/{pid}/status") as status:
                    fields = dict(line.split(":", 1) for line in status if ":" in line)
            except OSError:
                continue
            name = fields.get("Name", "?").strip()
            threads = int(fields.get("Threads", "0").strip() or 0)
            rss = int((fields.get("VmRSS", "0 kB").split() or ["0"])[0])
            if threads > self.threads[0]:
                self.threads = (threads, name)
            if rss > self.rss_kib[0]:
                self.rss_kib = (rss, name)

    def summary(self):
        return (f"peak of the processes under the tests: {self.threads[0]} threads ({self.threads[1]}), "
                f"{self.rss_kib[0] // 1024} MB resident ({self.rss_kib[1]})")


def report_and_kill(child, silence, peak):
    say(f"no output for {silence:.0f} s: the test that started last above hangs. "
        "Every thread of every process under the test command follows, then they are killed.")
    say(peak.summary())
    pids = [child.pid] + descendants(child.pid)
    for pid in pids:
        print(f"\n=== process {pid}: {command_line(pid)}", flush=True)
        print(stacks(pid), flush=True)
    for pid in reversed(pids):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    child.wait()
    say(f"killed after {silence:.0f} s of silence (exit 124)")
    return 124


def main():
    arguments = parse_arguments()
    command = arguments.command
    if shutil.which("stdbuf"):
        command = ["stdbuf", "-oL", "-eL"] + command
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)

    def forward(signum, _frame):
        try:
            os.killpg(child.pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)

    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    output = sys.stdout.buffer
    last_output = time.monotonic()
    pending = b""
    peak = Peak()
    while True:
        peak.sample(child.pid)
        if not selector.select(timeout=5):
            if time.monotonic() - last_output >= arguments.silence:
                if pending:
                    output.write(pending + b"\n")
                    output.flush()
                return report_and_kill(child, arguments.silence, peak)
            continue
        chunk = os.read(child.stdout.fileno(), 65536)
        if not chunk:
            break
        last_output = time.monotonic()
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            output.write(line + b"\n")
        output.flush()
    if pending:
        output.write(pending)
        output.flush()
    status = child.wait()
    say(peak.summary())
    return status


if __name__ == "__main__":
    sys.exit(main())
