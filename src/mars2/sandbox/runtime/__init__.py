"""Code that runs inside the sandbox: standard library only, nothing from mars2.

The worker starts `python -I -S` with this directory's parent on `sys.path` and calls
`runtime.main.worker_main()` (`protocol.worker_program`). See `mars2.sandbox` for the process
tree and the trust model. `protocol` holds every message format and timing rule, and is the
only module here that the host imports; `common` holds what the other modules share.
"""
