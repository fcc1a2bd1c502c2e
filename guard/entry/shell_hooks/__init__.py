"""The shell hooks (`guard init bash|zsh|fish`): the hook text rendered (init.py), the checker a
hook starts on its pipes (server.py), the shell state it reports (state.py)."""
