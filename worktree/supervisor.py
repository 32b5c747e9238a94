"""The suite's supervisor: run one command, report its exit status, leave nothing behind.

The suite lens starts this file as a script, in a session of its own::

    python -I -S supervisor.py STATUS_FD PARENT_PID GRACE -- ARGV...

It uses the standard library only and is run by path in isolated mode, so
nothing in the pushed commit's directory can stand in for the modules it
imports. It is a process of its own so that the convene process never becomes
a subreaper and never waits for "any child" (``waitpid(-1)`` there would race
``subprocess`` in other threads and could report a failing suite as exit 0).

On Linux it makes itself a child subreaper (``PR_SET_CHILD_SUBREAPER``): a
descendant whose parent exits (a ``setsid`` background job, a double-forked
daemon) is re-parented to it instead of to init, so everything the command
starts stays its descendant. It waits for any child, keeps the command's own
status, and once the command has exited, or the supervisor is told to stop
(SIGTERM, SIGINT, SIGHUP, or its parent's death through ``PR_SET_PDEATHSIG``),
it stops every remaining descendant: SIGTERM (and SIGCONT, for stopped ones),
GRACE seconds, then SIGKILL, reaping as it goes. Processes handed to a daemon
outside the tree (a container engine, ``systemd-run --user``) are not its
descendants and escape.

Elsewhere (macOS) there is no subreaper: the command runs in a process group of
its own, and what is stopped is whatever is still in that group or still
descends from the supervisor. A process that leaves the group (``setsid``) and
whose parent exits escapes.

It writes ``started <pid>`` once the command runs, then one final line to
STATUS_FD: ``exit <code> killed <n>``, ``signal <number> killed <n>``,
``stopped killed <n>`` or ``error <message>``, and exits 0.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
_STOPS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
GIVE_UP_AFTER_KILL = 5.0
_POLL = 0.02
Table = dict[int, tuple[int, int, str]]  # pid -> (parent pid, process group, state)


class Stop(Exception):
    """The supervisor was told to stop (a signal, or its parent is gone)."""


def main(argv: list[str]) -> int:
    status_fd, parent, grace, command = int(argv[1]), int(argv[2]), float(argv[3]), argv[5:]
    os.set_inheritable(status_fd, False)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    for sig in _STOPS:
        signal.signal(sig, _stop)
    linux = sys.platform.startswith("linux")
    subreaper = linux and _prctl(PR_SET_CHILD_SUBREAPER, 1)
    pid = None
    try:
        if linux:
            _prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
        if os.getppid() != parent:
            raise Stop  # the parent died before the line above could take effect
        try:
            pid = _spawn(command)
        except OSError as exc:
            _report(status_fd, f"error {command[0]}: {exc.strerror or exc}")
            return 0
        _report(status_fd, f"started {pid}")
        status = _wait_for(pid)
        killed = stop_all(pid, grace, subreaper)
        code = os.waitstatus_to_exitcode(status)
        outcome = f"exit {code}" if code >= 0 else f"signal {-code}"
    except Stop:
        killed = stop_all(pid, grace, subreaper)
        outcome = "stopped"
    _report(status_fd, f"{outcome} killed {killed}")
    return 0


def _stop(signum: int, frame: object) -> None:
    raise Stop


def _prctl(option: int, value: int) -> bool:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _spawn(command: list[str]) -> int:
    """The command in a process group of its own, with the signal defaults a shell gives."""
    resets = {signal.SIGPIPE, *_STOPS}
    if hasattr(signal, "SIGXFSZ"):
        resets.add(signal.SIGXFSZ)
    return os.posix_spawnp(
        command[0], command, os.environ, setpgroup=0, setsigdef=resets, setsigmask=()
    )


def _wait_for(pid: int) -> int:
    """Reap children (re-parented orphans too) until ``pid`` exits; its wait status."""
    while True:
        got, status = os.waitpid(-1, 0)
        if got == pid:
            return status


def stop_all(group: int | None, grace: float, subreaper: bool) -> int:
    """Stop every descendant (and, without a subreaper, the command's group); how many."""
    for sig in _STOPS:
        signal.signal(sig, signal.SIG_IGN)  # a second request must not cut this short
    me = os.getpid()
    signalled: set[int] = set()
    hard_at = time.monotonic() + grace
    give_up_at = hard_at + GIVE_UP_AFTER_KILL
    while True:
        _reap_ready()
        targets = descendants(me, None if subreaper else group)
        now = time.monotonic()
        if not targets or now >= give_up_at:
            return len(signalled)
        for pid in targets:
            if now >= hard_at:
                _send(pid, signal.SIGKILL)
            elif pid not in signalled:
                _send(pid, signal.SIGTERM)
                _send(pid, signal.SIGCONT)
        signalled |= targets
        time.sleep(_POLL)


def _reap_ready() -> None:
    while True:
        try:
            got, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if got == 0:
            return


def _send(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, sig)


def descendants(root: int, group: int | None) -> set[int]:
    """Live (non-zombie) processes below ``root``, and in process group ``group`` if given."""
    table = _proc_table() if os.path.isdir("/proc/self") else _ps_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _pgid, _state) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    if group is not None:
        found |= {pid for pid, (_ppid, pgid, _state) in table.items() if pgid == group}
    found.discard(root)
    return {pid for pid in found if pid in table and table[pid][2] not in ("Z", "X")}


def _proc_table() -> Table:
    table: Table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                text = handle.read()
        except OSError:
            continue  # it exited while we looked
        fields = text.rsplit(b")", 1)[-1].split()  # the command name may hold ")"
        if len(fields) > 2:
            table[int(name)] = (
                int(fields[1]),
                int(fields[2]),
                fields[0].decode("ascii", "replace"),
            )
    return table


def _ps_table() -> Table:
    import subprocess

    try:
        out = subprocess.run(
            ["ps", "-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid=", "-o", "stat="],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    table: Table = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[0].isdigit() and fields[1].isdigit():
            table[int(fields[0])] = (int(fields[1]), int(fields[2]), fields[3][:1])
    return table


def _report(fd: int, line: str) -> None:
    with contextlib.suppress(OSError):  # the convene is gone; the processes stop all the same
        os.write(fd, (line.replace("\n", " ") + "\n").encode("utf-8", "replace"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
