"""Code that runs inside the sandbox: standard library only, nothing from mars2.

The worker starts `python -I -S` with this directory's parent on `sys.path` and calls
`runtime.main.worker_main()`. See `mars2.sandbox` for the process tree and the trust model;
the protocol with the host is framed JSON on the worker's stdin (`b"M2"` + 4-byte big-endian
length + JSON: header, code, tests) and JSON lines on its stdout, both the judge's.
"""
