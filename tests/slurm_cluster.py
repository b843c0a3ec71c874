"""A real single-node SLURM for a test: ``munged``, ``slurmctld`` and ``slurmd``
(Debian's ``munge`` and ``slurm-wlm``) started as root in a folder of their own,
on ports of their own, and stopped again, with every process they started.

Nothing outside the folder is used (a short one of its own if the path given
is too long for a unix socket): the munge key and socket, the state and
spool folders, the pid and log files are all in it; the commands find the
cluster through ``SLURM_CONF`` (``SlurmCluster.env``). Every daemon and every
process they start carries ``BOGGLE_OPT_TEST_SLURM=<folder>`` in its
environment, so ``stop()`` can find and kill, by pid, whatever outlived the
daemons (a job step, a task SLURM was still killing).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

#: every command the cluster needs (Debian's slurm-wlm and munge have them)
COMMANDS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo", "scancel")
#: where Debian puts the daemons (not on a non-root PATH)
SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin", "/usr/bin"])
#: marks the daemons and everything they start, for the sweep in ``stop()``
MARKER = "BOGGLE_OPT_TEST_SLURM"


def why_not_available() -> str | None:
    """Why a cluster cannot be started here (None: it can be tried)."""
    missing = [c for c in COMMANDS if not shutil.which(c, path=SEARCH_PATH)]
    if missing:
        return (f"needs SLURM and munge installed (not found: {', '.join(missing)}); "
                "as root: apt-get install slurm-wlm munge")
    if os.geteuid() != 0:
        return "needs root: slurmd runs the jobs as SlurmdUser=root (CI runs as root)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _default_signals() -> None:
    # a test run started under nohup (SIGHUP ignored) or in the background
    # (SIGINT ignored) would hand that on to the daemons and so to the jobs
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _memory_mb() -> int:
    with open("/proc/meminfo", encoding="ascii") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    raise RuntimeError("no MemTotal in /proc/meminfo")


class SlurmCluster:
    """One node (this machine, ``hostname -s``), one partition ``test``."""

    def __init__(self, folder: Path) -> None:
        # munged's socket and slurmstepd's (in the spool folder) are unix
        # sockets, with room for 107 bytes of path: a long folder gets a short
        # one of its own, removed by stop()
        self._remove = len(str(folder)) > 60
        self.folder = Path(tempfile.mkdtemp(prefix="slurm-")) if self._remove else folder
        self.host = socket.gethostname().split(".")[0]
        self.cpus = os.cpu_count() or 1
        self.memory_mb = _memory_mb()
        self.conf = self.folder / "slurm.conf"
        self.socket = self.folder / "munge" / "munge.socket.2"
        self.env = {**os.environ, "PATH": SEARCH_PATH, "SLURM_CONF": str(self.conf), MARKER: str(self.folder)}
        self._daemons: list[tuple[str, subprocess.Popen[bytes]]] = []

    def slurm_conf(self, ctld_port: int, slurmd_port: int) -> str:
        f = self.folder
        return "\n".join([
            "ClusterName=boggletest",
            f"SlurmctldHost={self.host}(127.0.0.1)",
            f"SlurmctldPort={ctld_port}",
            f"SlurmdPort={slurmd_port}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            # the munge socket of this cluster's munged; a requeued job waits
            # cred_expire seconds before it starts again (120 by default)
            f"AuthInfo=socket={self.socket},cred_expire=5",
            f"StateSaveLocation={f / 'state'}",
            f"SlurmdSpoolDir={f / 'spool'}",
            f"SlurmctldPidFile={f / 'slurmctld.pid'}",
            f"SlurmdPidFile={f / 'slurmd.pid'}",
            f"SlurmctldLogFile={f / 'log' / 'slurmctld.log'}",
            f"SlurmdLogFile={f / 'log' / 'slurmd.log'}",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",  # CPUs consumable: array tasks share the node
            "SchedulerType=sched/backfill",
            # look at pending jobs every second (a requeued task's begin time
            # passing is no event; by default it waits up to 30 s)
            "SchedulerParameters=sched_interval=1,bf_interval=1",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "MailProg=/bin/true",
            "ReturnToService=2",
            "MinJobAge=600",  # finished tasks stay in scontrol show job
            f"NodeName={self.host} NodeAddr=127.0.0.1 CPUs={self.cpus} RealMemory={self.memory_mb} State=UNKNOWN",
            f"PartitionName=test Nodes={self.host} Default=YES MaxTime=INFINITE State=UP",
            "",
        ])

    # -- start and stop ---------------------------------------------------

    def start(self, timeout: float = 60) -> None:
        """Start munged, slurmctld and slurmd; return once the node is idle."""
        for sub in ("munge", "state", "spool", "log"):
            (self.folder / sub).mkdir(mode=0o755, exist_ok=True)
        key = self.folder / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.conf.write_text(self.slurm_conf(_free_port(), _free_port()), encoding="utf-8")
        munge = self.folder / "munge"
        self._daemon("munged", "--foreground", "--force", f"--socket={self.socket}", f"--key-file={key}",
                     f"--log-file={self.folder / 'log' / 'munged.log'}", f"--pid-file={munge / 'munged.pid'}",
                     f"--seed-file={munge / 'munged.seed'}")
        self._wait(self.socket.exists, timeout, "munged to create its socket")
        self._daemon("slurmctld", "-D", "-f", str(self.conf))
        self._wait(lambda: self.run("scontrol", "ping").returncode == 0, timeout, "slurmctld to answer")
        self._daemon("slurmd", "-D", "-f", str(self.conf))
        self._wait(lambda: self.node_state() == "idle", timeout, "the node to be idle in sinfo")

    def _daemon(self, name: str, *args: str) -> None:
        exe = shutil.which(name, path=SEARCH_PATH)
        assert exe, name
        with open(self.folder / "log" / f"{name}.out", "ab") as out:
            proc = subprocess.Popen([exe, *args], env=self.env, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    preexec_fn=_default_signals)
        self._daemons.append((name, proc))

    def _wait(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, proc in self._daemons:
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with status {proc.returncode} while waiting for "
                                       f"{what}\n{self.logs()}")
            if ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}\n{self.logs()}")

    def stop(self) -> list[str]:
        """Cancel every job, stop the daemons (slurmd, slurmctld, munged) and
        kill, by pid, any process of theirs still left. Returns what had to be
        killed that way (empty when everything stopped by itself)."""
        if any(name == "slurmctld" and proc.poll() is None for name, proc in self._daemons):
            self.run("scancel", "--user", "root")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and self.run("squeue", "-h", "-t", "R,CG").stdout.strip():
                time.sleep(0.2)
        for name, proc in reversed(self._daemons):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
        self._daemons.clear()
        # a job step still ending after its slurmd: a few seconds to go by itself
        deadline = time.monotonic() + 5
        while self.processes() and time.monotonic() < deadline:
            time.sleep(0.1)
        leftovers = []
        for pid, cmd in self.processes():
            try:
                os.kill(pid, signal.SIGKILL)
                leftovers.append(f"{pid} {cmd}")
            except ProcessLookupError:
                pass
        if self._remove:
            shutil.rmtree(self.folder, ignore_errors=True)
        return leftovers

    def processes(self) -> list[tuple[int, str]]:
        """Every process (but this one) with this cluster's marker in its environment."""
        mark = f"{MARKER}={self.folder}".encode() + b"\0"
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                environ = (entry / "environ").read_bytes() + b"\0"
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                continue
            if (b"\0" + mark) in (b"\0" + environ):
                found.append((int(entry.name), cmd))
        return found

    # -- talking to it ----------------------------------------------------

    def run(self, *args: str, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """A SLURM command on this cluster, in its environment or ``env`` (a
        job submitted with ``--export=ALL`` gets that)."""
        own = {"SLURM_CONF": self.env["SLURM_CONF"], MARKER: self.env[MARKER]}
        return subprocess.run(list(args), env={**(env or self.env), **own}, capture_output=True, text=True,
                              timeout=timeout)

    def node_state(self) -> str:
        return self.run("sinfo", "-h", "-N", "-o", "%T").stdout.strip()

    def tasks(self, job: str) -> dict[str, dict[str, str]]:
        """``scontrol show job`` of an array job, by array task id (a pending
        rest of the array is one entry, ``2-3`` say)."""
        shown = self.run("scontrol", "show", "job", "-o", job)
        found: dict[str, dict[str, str]] = {}
        for line in shown.stdout.splitlines():
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            if "ArrayTaskId" in fields:
                found[fields["ArrayTaskId"]] = fields
        return found

    def logs(self, lines: int = 15) -> str:
        """The last lines of each daemon's log, for a failure's message."""
        parts = []
        for log in sorted((self.folder / "log").glob("*")):
            if log.suffix == ".out" and (log.with_suffix(".log").exists() or not log.stat().st_size):
                continue  # the daemon's stdout repeats its log
            tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
            parts.append(f"--- {log.name}\n" + "\n".join(tail))
        return "\n".join(parts)
