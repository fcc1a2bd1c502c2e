"""The approvals store and what is written to it: sessions, approvals, the audit log (and its
copy in the system log), and what a session knows of its store's trouble."""
