"""Asking a human: the terminal prompt, confirm, and the approver (server, client)."""
