"""`python -m guard`: the same as the `guard` command."""

from guard.cli import main

raise SystemExit(main())
