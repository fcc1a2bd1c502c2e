"""guarded-bash: the bash shim (guarded_bash.py), its launcher, how it reads a script and its
stdin, the ssh transfers it lets through, the banner of an interactive shell."""
