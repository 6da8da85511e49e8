"""`python -m mars2` is the `mars2` command."""

from mars2.cli import main

raise SystemExit(main())
