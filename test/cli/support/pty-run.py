"""Runs a command in a pseudo-terminal of a given size, types keys when its output matches, and
prints {"code", "signal", "transcript"} as JSON (transcript: base64 of every byte written to the
terminal). Python's pty module is on every machine; tmux is not.

Usage: python3 pty-run.py '<json spec>'
spec: {"argv": [...], "env": {...}, "cwd": "...", "columns": 80, "rows": 24, "timeoutMs": 60000,
       "steps": [{"waitFor": "<regex>", "delayMs": 0, "send": "\u0003"}]}
Each step waits until its regex matches the output written after the previous step's match,
then waits delayMs and writes `send` to the terminal (Ctrl-C is "\u0003": the terminal turns it
into SIGINT for the command, as for a person at the keyboard).
"""
import base64
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

spec = json.loads(sys.argv[1])
columns, rows = spec.get("columns", 80), spec.get("rows", 24)

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    os.chdir(spec["cwd"])
    os.execve(spec["argv"][0], spec["argv"], spec["env"])

transcript = bytearray()
steps = list(spec.get("steps", []))
searched_from = 0
deadline = time.monotonic() + spec.get("timeoutMs", 60000) / 1000
send_at = None

while True:
    if time.monotonic() > deadline:
        os.kill(pid, signal.SIGKILL)
    if steps and send_at is None:
        match = re.search(steps[0]["waitFor"], transcript[searched_from:].decode("utf-8", "replace"))
        if match:
            searched_from = len(transcript)
            send_at = time.monotonic() + steps[0].get("delayMs", 0) / 1000
    if send_at is not None and time.monotonic() >= send_at:
        os.write(fd, steps.pop(0)["send"].encode())
        send_at = None
    ready, _, _ = select.select([fd], [], [], 0.02)
    if fd in ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        transcript += chunk

_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
print(json.dumps({"code": code, "signal": sig, "stepsLeft": len(steps), "transcript": base64.b64encode(bytes(transcript)).decode()}))
