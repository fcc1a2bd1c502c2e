"""Where lines come in, one subpackage per product: guarded-bash (`shim/`), the shell hooks
(`shell_hooks/`), the resident checker (`resident/`), the agents' adapters (`agents/`). What all
of them share stays here: judging a line (`check.py`) and its JSON (`judgement_json.py`)."""
