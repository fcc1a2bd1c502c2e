"""`guard watch --web`: the approver's page (the optional `guard-shell[web]` extra).

Nothing on the per-command path imports this package: only `guard watch --web` does.
"""
