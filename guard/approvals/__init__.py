"""Approvals and the judged line: the store, sessions, trust, scopes, the decision and the
judgement."""
