"""Execute untrusted candidate code against tests (docs/sandbox.md): `Sandbox`, `SandboxStats`.

    with Sandbox(SandboxConfig(workers=2)) as sandbox:
        result = sandbox.run(code, problem, "public")   # ExecResult: verdicts + feedback

Process tree (one per worker; the `runtime` subpackage is everything that runs inside):

    host (Sandbox, compares outputs)          holds expected outputs; they never leave it
      └─ bwrap ─ judge (python -I -S, pid 1)  lives as long as the worker: reads each run's
           │                                  header, code and test inputs / programs, drives
           │                                  the candidate over a socketpair, drains its
           │                                  stdout/stderr, reports to the host; never forks
           │                                  after start-up
           └─ zygote                          forked by the judge at start-up, before it read
                │                             anything of any run: a warm interpreter with
                │                             common modules preloaded that never holds code
                │                             or tests; subreaper of everything below it
                └─ candidate (per load)       forked by the zygote on the judge's request,
                                              gets its code from the judge, runs it

The host writes a run as three frames at once (header, code, tests), all read by the judge; the
zygote gets the run's limits and spawn requests from the judge over a socketpair. Every message
format and timing rule is in `runtime/protocol.py`, the only module of `runtime` the host imports.

What is isolated (level `bwrap`, the default where bubblewrap works):
- Namespaces: user, pid, net, ipc, uts, mount, cgroup. No network at all (a fresh net
  namespace with only loopback); only the worker's own processes are visible.
- Filesystem: /usr (and /bin, /lib symlinks) and the Python installation read-only, a private
  tmpfs /tmp, fresh /proc and /dev; nothing else of the host (no /home, /root, /work, /etc).
  Each run gets a fresh working directory; /tmp is wiped after every run.
- Identity: uid/gid 65534 inside the namespace, no capabilities, a clean environment (no
  inherited variables: secrets in the host's environment are not visible).
- Limits per candidate process: address space (`memory_mb`), CPU seconds (`cpu_s` per test),
  file size (`max_file_mb`), core dumps off; processes: a pids cgroup of `max_processes`
  (+ the harness) per worker where the host can create one, else RLIMIT_NPROC; output bytes
  (`max_output_bytes`) counted by the judge, which kills the candidate past the limit.
- Time: the judge gives each test `timeout_s` of wall clock and SIGKILLs the candidate's
  process group; the host kills the whole worker if the judge does not finish the run in time.
  After every run the zygote reaps its children; as the subreaper of every candidate it is an
  ancestor of every process a run started (an orphan is re-parented to it before its parent
  becomes a zombie), so when the kernel says it has no child of any kind left (`waitpid` with
  `__WALL`: ECHILD, an atomic answer) nothing is left. Otherwise it SIGKILLs every process of the pid
  namespace but the judge (`kill(-1)` spares pid 1) and reaps until none is left, so daemons
  that `setsid`, double-fork or ignore SIGTERM die too. A worker that dies is replaced; tests
  its run never reported get `error`.

Why a verdict cannot be forged:
- Expected outputs never enter the sandbox. For `functional` the judge sends back the value the
  candidate returned (as JSON), for `stdin` the captured stdout; the host compares. Writing,
  printing or patching anything inside the sandbox can only change the reported output.
- The candidate runs in its own process. It reaches the judge only through a socket carrying
  marshal-encoded plain data (None, bool, numbers, str, bytes, tuple/list/dict/set), which the
  judge validates: an object with a custom `__eq__`, a code object or garbage is `wrong`.
  Monkeypatching builtins, `json` or `print`, `sys.settrace` tricks and `atexit` hooks act on
  the candidate's interpreter only, never on the judge that runs the assert programs.
- A test counts only when the judge saw it finish: a candidate that calls `sys.exit(0)`,
  `os._exit(0)` or kills itself before (or during) a test gets `error` for it, never `pass`.
- The processes that hold test data are not dumpable (PR_SET_DUMPABLE=0): the candidate, with
  the same uid, cannot ptrace them, read their memory or open their file descriptors through
  /proc. The candidate's memory is a copy of the zygote's, which never receives code or tests,
  so `gc`, frames or a raw memory scan find neither the test programs and inputs of this run
  nor anything of earlier runs. The judge lives across runs and so holds what earlier runs
  sent, but only in its own memory, which no candidate can read (not dumpable, never forked
  from after start-up), and no candidate outlives its run (see Time). As pid 1 of its
  namespace the judge never receives a signal sent from inside it but SIGALRM while a test
  runs (its per-test clock), and that one ends the test only once the judge's own timer is
  due: a candidate's signals change nothing (SIGINT is ignored). A candidate can kill the
  zygote (the judge then fails the run's remaining tests with `error` and ends the worker) or
  stop it (its remaining tests time out; the judge resumes it for the sweep, else ends the
  worker). Test programs that print reach /dev/null, never the host's pipe.

What is NOT isolated, or weaker:
- Candidates see the standard library only (`python -I -S`: no site-packages, so no numpy),
  and the environment is empty.
- `assert` programs run in the judge and call the candidate through proxies, so arguments and
  return values must be plain data: a test that passes a lambda, checks a returned object's
  identity or relies on in-place mutation of an argument is reported as failing.
- The judge is one interpreter for all the runs of a worker: a test program that changes
  module state there (patches `math`, edits `builtins`) affects later test programs of that
  worker. Test programs come from the dataset, not from candidates; a candidate only makes the
  judge import standard-library modules its code imported.
- CPU and memory are shared with the host (no cgroup CPU/memory quota); a candidate can slow
  others down for up to its time limit. Reading /proc/cpuinfo, /proc/meminfo works.
- Level `unshare` (no bubblewrap): namespaces as above, but the host filesystem is visible
  read-write with the host user's rights, the candidate is root of its user namespace and /tmp
  is shared with the host. Level `rlimit`: resource limits only; the network is reachable and
  the filesystem is the host's (the candidate runs as uid 65534 when the host user is root;
  leftover processes are killed by the zygote, whose children they become, and through the
  pids cgroup when there is one). Both are logged as a warning; `mars2 doctor` shows the level in use.
"""

from __future__ import annotations

from mars2.sandbox.pool import Sandbox, SandboxStats

__all__ = ["Sandbox", "SandboxStats"]
