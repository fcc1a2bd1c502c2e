"""The verdict on a line: the decision (policy rules and approvals applied to its requests), the
judged line, the workspace and trust it is judged in; the store (`store/`) and what a long-lived
process keeps between lines (`cache/`)."""
