"""``python -m pokerhouse`` runs the command line."""

from pokerhouse.cli import main

raise SystemExit(main())
