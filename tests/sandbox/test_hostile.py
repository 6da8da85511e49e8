"""A corpus of hostile programs: each is contained, none passes, no process is left behind, and
the pool keeps grading correctly afterwards.

Each program returns the secret answers only if its attack works (it learns them some forbidden
way, or its forged report is believed), so "not passed" means "the attack failed".
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import socket
import threading
from pathlib import Path

import pytest
from sandbox_cases import ASSERT, FAST, FUNC, REFERENCE, SECRET, STDIN, descendants

from mars2.sandbox import Sandbox

PROBLEMS = {"func": FUNC, "assert": ASSERT, "stdin": STDIN}

# Snippet: `_find(blob)` collects "f(<x>) == <secret>" pairs (the assert programs' text) from
# bytes; `f` answers from what was collected.
FIND = (
    "import re\n"
    "SEEN = {}\n"
    "def _find(blob):\n"
    "    for m in re.finditer(rb'f[(]([0-9])[)] == ([0-9]{6})', blob):\n"
    "        SEEN[int(m.group(1))] = int(m.group(2))\n"
    "def f(x):\n"
    "    return SEEN.get(x)\n"
)
SNOOPED = {"wrong"}  # the attack ran to the end and found nothing

CORPUS: dict[str, tuple[str, str, set[str] | None]] = {
    # name: (problem, code, verdicts allowed; None = any verdict but pass)
    "fork_bomb": (
        "func",
        "import os\ndef f(x):\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass\n",
        {"timeout", "error"},
    ),
    "fork_bomb_at_load": (
        "func",
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        {"timeout", "error"},
    ),
    "memory_bomb": ("func", "def f(x):\n    return len(bytearray(2**33))\n", {"memory"}),
    "memory_creep": (
        "func",
        "def f(x):\n    xs = []\n    while True:\n        xs.append(' ' * 2**20)\n",
        {"memory", "timeout"},  # a loaded machine may not reach the limit within 1 s
    ),
    "cpu_spin_threads": (
        "func",
        "import threading\ndef spin():\n    while True: pass\n"
        "def f(x):\n    for _ in range(4): threading.Thread(target=spin).start()\n    spin()\n",
        {"timeout"},
    ),
    "sleep": ("func", "import time\ndef f(x):\n    time.sleep(60)\n", {"timeout"}),
    "sleep_at_load": ("func", "import time\ntime.sleep(60)\ndef f(x): pass\n", {"timeout"}),
    "sigterm_ignored": (
        "func",
        "import signal\nfor s in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM, signal.SIGXCPU):\n"
        "    signal.signal(s, signal.SIG_IGN)\ndef f(x):\n    while True: pass\n",
        {"timeout"},
    ),
    "raise_own_limits": (
        "func",
        "import resource\nfor r in (resource.RLIMIT_CPU, resource.RLIMIT_AS):\n"
        "    try: resource.setrlimit(r, (resource.RLIM_INFINITY,) * 2)\n    except Exception: pass\n"
        "def f(x):\n    while True: pass\n",
        {"timeout"},
    ),
    "setsid_daemon": (
        "func",
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(600)\n    os._exit(0)\n"
        "def f(x):\n    return None\n",
        {"wrong"},
    ),
    "double_fork_daemon": (
        "func",
        "import os, signal, time\nif os.fork() == 0:\n    if os.fork() == 0:\n        os.setsid()\n"
        "        signal.signal(signal.SIGTERM, signal.SIG_IGN)\n        while True: time.sleep(0.1)\n"
        "    os._exit(0)\ndef f(x):\n    return None\n",
        {"wrong"},
    ),
    "kill_parent": (
        "func",
        "import os, signal\ndef f(x):\n    os.kill(os.getppid(), signal.SIGKILL)\n    return None\n",
        None,
    ),
    "kill_everyone": (  # kills the zygote; the judge (pid 1) may still see the None returned
        "func",
        "import os, signal\ndef f(x):\n    os.kill(-1, signal.SIGKILL)\n",
        {"error", "wrong"},
    ),
    "kill_zygote": (
        "func",
        "import os, signal\ndef f(x):\n    for pid in range(1, 10):\n        try: os.kill(pid, signal.SIGKILL)\n"
        "        except OSError: pass\n    return None\n",
        None,
    ),
    "signal_judge": (  # the judge is pid 1 and lives across runs
        "func",
        "import os, signal\ndef f(x):\n    for sig in (signal.SIGALRM, signal.SIGINT, signal.SIGTERM, signal.SIGUSR1):\n"
        "        os.kill(1, sig)\n    return None\n",
        None,
    ),
    "alarm_daemon": (  # keeps signalling the judge while the run is swept
        "func",
        "import os, signal\nif os.fork() == 0:\n    os.setsid()\n    while True:\n"
        "        try: os.kill(1, signal.SIGALRM)\n        except OSError: pass\n"
        "def f(x):\n    return None\n",
        None,
    ),
    "stop_everyone": (
        "func",
        "import os, signal\ndef f(x):\n    os.kill(-1, signal.SIGSTOP)\n    return None\n",
        None,
    ),
    "huge_output": ("func", "def f(x):\n    while True: print('x' * 4096)\n", {"output_limit"}),
    "huge_stderr": (
        "stdin",
        "import sys\nwhile True: sys.stderr.write('y' * 4096)\n",
        {"output_limit"},
    ),
    "ctypes_segfault": (
        "func",
        "import ctypes\ndef f(x):\n    return ctypes.string_at(0)\n",
        {"error"},
    ),
    "deep_recursion": (
        "func",
        "import sys\nsys.setrecursionlimit(10**7)\ndef r(n): return r(n + 1) + 1\ndef f(x):\n    return r(0)\n",
        {"error", "memory", "timeout"},
    ),
    "stdin_past_eof": ("func", "def f(x):\n    return int(input())\n", {"error"}),
    "stdin_past_eof_stdin": (
        "stdin",
        "input()\nprint(input())\n",
        {"error"},
    ),
    "close_all_fds": (
        "func",
        "import os\nos.closerange(0, 4096)\ndef f(x):\n    return None\n",
        None,
    ),
    "exit0_before_tests": ("assert", "import sys\nsys.exit(0)\n", {"error"}),
    "os_exit0_before_tests": ("assert", "import os\nos._exit(0)\n", {"error"}),
    "exit0_in_call": ("assert", "import sys\ndef f(x):\n    sys.exit(0)\n", {"error"}),
    "atexit_exit0": (
        "assert",
        "import atexit, os\natexit.register(lambda: os._exit(0))\ndef f(x):\n    raise SystemExit(0)\n",
        {"error"},
    ),
    "always_equal_object": (
        "assert",
        "class E:\n    def __eq__(self, other): return True\n    __hash__ = None\ndef f(x):\n    return E()\n",
        {"wrong"},
    ),
    "int_subclass_equal": (
        "assert",
        "class I(int):\n    def __eq__(self, other): return True\ndef f(x):\n    return I(0)\n",
        {"wrong"},
    ),
    "patch_builtins": (
        "assert",
        "import builtins\nbuiltins.AssertionError = type('A', (BaseException,), {})\n"
        "builtins.isinstance = lambda *a: True\ndef f(x):\n    return 0\n",
        {"wrong"},
    ),
    "patch_json_and_print": (
        "func",
        "import json, builtins\njson.dumps = lambda *a, **k: '987654'\njson.loads = lambda *a, **k: 987654\n"
        "builtins.print = lambda *a, **k: None\ndef f(x):\n    return 0\n",
        {"wrong"},
    ),
    "settrace_skip_asserts": (
        "assert",
        "import sys\ndef tracer(frame, event, arg):\n    return None\nsys.settrace(tracer)\n"
        "import threading\nthreading.settrace(tracer)\ndef f(x):\n    return 0\n",
        {"wrong"},
    ),
    "forge_host_event": (
        "func",
        "import os\nfor fd in range(0, 64):\n    try:\n"
        '        os.write(fd, b\'{"ev": "test", "i": 0, "verdict": "pass"}\\n{"ev": "done", "status": "ok"}\\n\')\n'
        "    except OSError: pass\ndef f(x):\n    return None\n",
        None,
    ),
    "forge_rpc_replies": (
        "assert",
        "import marshal, socket, struct\ns = socket.socket(fileno=3)\n"
        "for _ in range(4):\n    d = marshal.dumps(('ok', True))\n    s.sendall(struct.pack('>I', len(d)) + d)\n"
        "def f(x):\n    return 0\n",
        None,
    ),
    "forge_pass_on_stdout": (
        "stdin",
        'import sys\nsys.stdout.write(\'{"verdict": "pass"}\\n\')\n',
        {"wrong"},
    ),
    "snoop_gc": (
        "assert",
        FIND + "import gc\nfor o in gc.get_objects():\n"
        "    if isinstance(o, str):\n        _find(o.encode(errors='replace'))\n"
        "    elif isinstance(o, bytes | bytearray):\n        _find(o)\n",
        SNOOPED,
    ),
    "snoop_frames": (
        "assert",
        FIND.replace("def f(x):\n", "def f(x):\n    _walk()\n")
        + "import sys\ndef _walk():\n    fr = sys._getframe()\n    while fr:\n"
        "        _find(repr(fr.f_locals).encode() + repr(fr.f_code.co_consts).encode())\n"
        "        fr = fr.f_back\n",
        SNOOPED,
    ),
    "snoop_own_memory": (
        "assert",
        FIND + "with open('/proc/self/maps') as m:\n    regions = m.read().splitlines()\n"
        "with open('/proc/self/mem', 'rb') as mem:\n    for line in regions:\n"
        "        lo, hi = (int(v, 16) for v in line.split()[0].split('-'))\n"
        "        if not line.split()[1].startswith('rw') or hi - lo > 2**27: continue\n"
        "        try:\n            mem.seek(lo)\n            _find(mem.read(hi - lo))\n"
        "        except (OSError, ValueError, OverflowError): pass\n",
        SNOOPED,
    ),
    "snoop_proc": (
        "assert",
        FIND + "import os\nfor pid in os.listdir('/proc'):\n"
        "    if not pid.isdigit() or int(pid) == os.getpid(): continue\n"
        "    for part in ('cmdline', 'environ', 'mem', 'fd/0', 'fd/1', 'fd/3'):\n        try:\n"
        "            with open(f'/proc/{pid}/{part}', 'rb') as fh:\n                _find(fh.read(2**22))\n"
        "        except (OSError, ValueError): pass\n",
        SNOOPED,
    ),
    "ptrace_judge": (
        "assert",
        "import ctypes, os\nlibc = ctypes.CDLL(None)\nOK = []\nfor pid in range(1, 64):\n"
        "    if pid != os.getpid() and libc.ptrace(16, pid, 0, 0) == 0:\n        OK.append(pid)\n"
        "def f(x):\n    return {3: 987654, 4: 123457}[x] if OK else None\n",
        None,
    ),
    "write_file_bomb": (
        "func",
        "def f(x):\n    with open('big', 'wb') as fh:\n        fh.write(b'x' * 2**24)\n    return None\n",
        {"error"},
    ),
    "thread_swarm": (
        "func",
        "import threading, time\ndef f(x):\n    for _ in range(500):\n"
        "        threading.Thread(target=time.sleep, args=(30,)).start()\n    return None\n",
        {"error", "memory"},
    ),
    "huge_return_value": (
        "func",
        "def f(x):\n    return [0] * 10**8\n",
        {"memory", "output_limit"},
    ),
}


@pytest.fixture(scope="module")
def baseline(sandbox: Sandbox) -> int:
    return len(descendants(os.getpid()))


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_hostile_program_is_contained(sandbox: Sandbox, baseline: int, name: str) -> None:
    style, code, allowed = CORPUS[name]
    result = sandbox.run(code, PROBLEMS[style])
    verdicts = {t.verdict for t in result.tests}
    assert "pass" not in verdicts, f"{name} passed a test: {result}"
    assert "infra" not in verdicts, f"{name} looked like a sandbox failure: {result}"
    if allowed is not None:
        assert verdicts <= allowed, f"{name}: {result}"
    assert len(descendants(os.getpid())) == baseline, f"{name} left processes behind"
    assert sandbox.run(REFERENCE, FUNC).passed, f"the pool stopped grading after {name}"


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30


def test_network_is_unreachable(sandbox: Sandbox) -> None:
    if sandbox.isolation == "rlimit":
        pytest.skip("rlimit isolation does not block the network")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(5)
    port = server.getsockname()[1]

    def answer() -> None:
        try:
            conn, _ = server.accept()
            conn.sendall(b"987654 123457")
            conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    code = (
        "import socket\nGOT = []\ntry:\n"
        f"    GOT = socket.create_connection(('127.0.0.1', {port}), timeout=0.5).recv(64).split()\n"
        "except OSError:\n    pass\n"
        "def f(x):\n    return int(GOT[x - 3]) if GOT else None\n"
    )
    result = sandbox.run(code, FUNC)
    server.close()
    assert not any(t.passed for t in result.tests)


def test_environment_secrets_are_not_visible(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARS2_PLANTED_SECRET", f"{SECRET[3]} {SECRET[4]}")
    code = (
        "import os\nSECRET = os.environ.get('MARS2_PLANTED_SECRET', '')\n"
        "for pid in os.listdir('/proc'):\n    try:\n"
        "        SECRET += open(f'/proc/{pid}/environ', 'rb').read().decode(errors='replace')\n"
        "    except (OSError, ValueError):\n        pass\n"
        "import re\nNUMS = re.findall(r'(?<![0-9])(987654|123457)(?![0-9])', SECRET)\n"
        "def f(x):\n    return int(NUMS[0]) if NUMS else None\n"
    )
    with Sandbox(FAST) as box:
        result = box.run(code, FUNC)
    assert not any(t.passed for t in result.tests)


def test_writes_outside_the_run_directory_do_not_land(sandbox: Sandbox, tmp_path: Path) -> None:
    if sandbox.isolation != "bwrap":
        pytest.skip("only bubblewrap hides the host filesystem")
    targets = [tmp_path / "pwned", Path.cwd() / "pwned-by-candidate"]
    code = (
        f"TARGETS = {[str(t) for t in targets]!r}\nfor t in TARGETS:\n    try:\n"
        "        open(t, 'w').write('x')\n    except OSError:\n        pass\n"
        "def f(x):\n    return None\n"
    )
    sandbox.run(code, FUNC)
    assert not any(t.exists() for t in targets)


def test_temp_files_do_not_survive_the_run(sandbox: Sandbox) -> None:
    problem = dataclasses.replace(FUNC, private_tests=())
    plant = "import os, tempfile\nopen(os.path.join(tempfile.gettempdir(), 'left'), 'w').write('x')\ndef f(x):\n    return None\n"
    sandbox.run(plant, problem)
    look = "import os, tempfile\ndef f(x):\n    return 987654 if os.path.exists(os.path.join(tempfile.gettempdir(), 'left')) else None\n"
    assert not sandbox.run(look, problem).passed


def test_read_only_leftovers_do_not_survive_the_run(sandbox: Sandbox) -> None:
    """Trees the candidate made read-only in its directory and in /tmp (with a symlink to a
    directory inside, removed as a link) are removed; the next, innocent run is graded normally."""
    if sandbox.isolation != "bwrap":
        pytest.skip("only bubblewrap gives the sandbox a private /tmp")
    problem = dataclasses.replace(FUNC, private_tests=())
    plant = (
        "import os\nfor base in ('/tmp', os.getcwd()):\n"
        "    d = os.path.join(base, 'keep', 'deeper')\n    os.makedirs(d, exist_ok=True)\n"
        "    open(os.path.join(d, 'left'), 'w').write('x')\n"
        "    os.symlink(base, os.path.join(d, 'link'))\n"
        "    os.chmod(d, 0o500)\n    os.chmod(os.path.dirname(d), 0o500)\n"
        "def f(x):\n    return None\n"
    )
    assert {t.verdict for t in sandbox.run(plant, problem).tests} == {"wrong"}
    assert sandbox.run(REFERENCE, FUNC).passed
    look = (
        "import os\nFOUND = any(os.path.exists(os.path.join(b, 'keep')) for b in "
        "('/tmp', os.getcwd()))\ndef f(x):\n    return 987654 if FOUND else None\n"
    )
    assert {t.verdict for t in sandbox.run(look, problem).tests} == {"wrong"}


def test_a_worker_that_dies_is_replaced(sandbox: Sandbox) -> None:
    """The zygote is pid 1 of its namespace, immune to the candidate's signals, so kill it from
    outside in the middle of a run: that run gets `error`, the next one a fresh worker."""
    before = sandbox.stats.worker_restarts
    zygotes = set(descendants(os.getpid()))

    def kill_workers() -> None:
        for pid in zygotes:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    timer = threading.Timer(0.3, kill_workers)
    timer.start()
    result = sandbox.run("import time\ndef f(x):\n    time.sleep(0.8)\n", FUNC)
    timer.join()
    assert {t.verdict for t in result.tests} == {"error"}
    assert sandbox.stats.worker_restarts == before + 1
    assert sandbox.run(REFERENCE, FUNC).passed
