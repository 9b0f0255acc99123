"""Where the server's event loop stalls: a wrapper for ``load_ws.start_server(wrapper=...)``.

Runs the server code it is given (argv[1]) with a heartbeat in its event loop (a callback
every BEAT seconds; uvloop's callbacks cannot be timed one by one from Python). A beat that
comes more than STALL seconds late is a stall: it is recorded with its wall time and the
CPU time the loop's thread used meanwhile (little CPU: the thread was waiting for the GIL
or for a core, not running), and a watchdog thread samples the loop thread's stack every
few milliseconds while a beat is overdue, so the report names the code that held the loop.
Every second and on exit the report goes to the file named by QIPAN_STALLS (default: stderr).

    QIPAN_STALLS=stalls.txt .venv/bin/python benchmarks/frame_flood.py --wrapper benchmarks/loop_stalls.py
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import os
import sys
import threading
import time
import traceback

import uvicorn.server

#: A beat this much later than due is a stall (seconds).
STALL = float(os.environ.get("QIPAN_STALL", "0.03"))
BEAT = 0.005
#: The watchdog's sampling period (seconds).
PERIOD = 0.003


def waited() -> float:
    """Seconds this thread has waited for a core so far (Linux schedstat; 0 elsewhere)."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except OSError:
        return 0.0


last = [time.perf_counter(), time.thread_time(), waited()]  # the last beat: wall, CPU, runqueue
#: (wall time at its start, seconds late, CPU seconds, seconds runnable but waiting for a core)
stalls: list[tuple[float, float, float, float]] = []
samples: collections.Counter = collections.Counter()  # stack text -> samples inside stalls
loop_thread = threading.get_ident()


def beat(loop: asyncio.AbstractEventLoop) -> None:
    now, cpu, queued = time.perf_counter(), time.thread_time(), waited()
    late = now - last[0] - BEAT
    if late > STALL:
        stalls.append((time.time() - late, late, cpu - last[1], queued - last[2]))
    last[0], last[1], last[2] = now, cpu, queued
    loop.call_later(BEAT, beat, loop)


def watchdog() -> None:
    written = time.perf_counter()
    while True:
        time.sleep(PERIOD)
        if time.perf_counter() - written > 1.0:  # now and then: the server may be killed
            report()
            written = time.perf_counter()
        if time.perf_counter() - last[0] - BEAT > STALL:
            frame = sys._current_frames().get(loop_thread)
            if frame is not None:
                stack = traceback.extract_stack(frame)[-12:]
                samples[
                    "".join(
                        f"  {f.filename.split('site-packages/')[-1]}:{f.lineno} {f.name}\n" for f in stack
                    )
                ] += 1


def report() -> None:
    total = sum(s[1] for s in stalls)
    lines = [
        f"process CPU {time.process_time():.2f} s; stalls over {STALL * 1000:.0f} ms: {len(stalls)}, "
        f"{total:.2f} s in all"
    ]
    lines.append("the loop thread meanwhile: CPU, waiting for a core, the rest (blocked: GIL, I/O)")
    for at, took, cpu, queued in sorted(stalls, key=lambda s: -s[1])[:30]:
        clock = time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at % 1 * 1000):03d}"
        rest = took + BEAT - cpu - queued
        lines.append(
            f"{clock}  {took * 1000:7.1f} ms late: CPU {cpu * 1000:6.1f}, for a core {queued * 1000:6.1f}, "
            f"blocked {rest * 1000:6.1f} ms"
        )
    lines.append(f"\nstacks of the loop thread while a beat was overdue (every {PERIOD * 1000:.0f} ms):")
    for stack, count in samples.most_common(20):
        lines.append(f"{count} samples:\n{stack}")
    text = "\n".join(lines) + "\n"
    target = os.environ.get("QIPAN_STALLS")
    if target:
        with open(target, "w") as out:
            out.write(text)
    else:
        sys.stderr.write(text)


serve = uvicorn.server.Server.serve


async def serve_with_heartbeat(self, *args, **kwargs):
    loop = asyncio.get_running_loop()
    last[0], last[1], last[2] = time.perf_counter(), time.thread_time(), waited()
    loop.call_later(BEAT, beat, loop)
    threading.Thread(target=watchdog, daemon=True).start()
    await serve(self, *args, **kwargs)


uvicorn.server.Server.serve = serve_with_heartbeat
atexit.register(report)
exec(compile(sys.argv[1], "<server>", "exec"))
