"""What a pipeline's part reads from the part before it, when guard can know more than "a
pipe": paths under the roots a known producer was given (`find src | xargs wc -l`, see
guard/knowledge/producers.py), SQL that `echo` hands a database client, or code that `echo`
or `printf` hands an interpreter guard reads.
"""

from __future__ import annotations

from tree_sitter import Node

from guard.projection.accesses import written_code, written_path
from guard.projection.walk_records import Stdin
from guard.projection.walker import Walker
from guard.projection.words import plain_word


def piped_input(w: Walker, before: Node, node: Node) -> Stdin:
    """The standard input of `node`, which reads what `before` prints."""
    name = node.child_by_field_name("name") if node.type == "command" else None
    command = w.text(name) if name is not None else ""
    if command in ("xargs", "parallel"):  # only then does it matter what paths it prints
        roots, secrets = produced_listing(w, before)
        return Stdin("pipe", roots=roots, secrets=secrets)
    from guard.languages import DIALECTS

    if command in DIALECTS:
        return _piped_sql(w, before)
    return _piped_code(w, before, command) if command else Stdin("pipe")


def _piped_code(w: Walker, before: Node, command: str) -> Stdin:
    """`printf ',s/a/b/\\nw\\n' | ed -s f`, `echo 'print(1)' | python3`: code that `echo` or
    `printf` of literal words hands an interpreter guard reads is known text, read as the
    code it is; a pipe from anything else is code nobody knows."""
    from guard.knowledge import command_for
    from guard.languages import printed_text

    argv = static_argv(w, before)
    printed = _printed_files(w, argv) if argv else None
    if printed is not None:
        return printed  # `cat script.py | python3`: as `< script.py`
    record = command_for(command).interpreter
    if record is None or record.language == "unread":
        return Stdin("pipe")
    text = printed_text(argv) if argv else None
    return Stdin("pipe") if text is None else Stdin("text", text)


def _piped_sql(w: Walker, before: Node) -> Stdin:
    """`echo '.shell id' | sqlite3 db`: SQL a database client reads from `echo`/`printf` of
    literal words is known text, read as the code it is."""
    from guard.languages import printed_text

    argv = static_argv(w, before)
    if argv and argv[0] in ("echo", "printf"):
        # what they print, as for any reader of code (`_piped_code`); where that is not sure,
        # their words, which a token scan of SQL reads as well
        text = printed_text(argv)
        words = " ".join(a for a in argv[1:] if not a.startswith("-"))
        return Stdin("text", text if text is not None else words)
    printed = _printed_files(w, argv) if argv else None
    if printed is not None:
        return printed  # `cat dump.sql | sqlite3 db`: as `< dump.sql`
    return Stdin("pipe")


def file_stdin(w: Walker, name: str) -> Stdin:
    """What a command reads on standard input from the file `name` (`< name`): a file of the
    disk (reading it is the redirect's or the producer's access), or, for a file this line
    writes (`echo … > x.sh; bash < x.sh`), what the line put there when that is known, else
    a pipe nobody can know."""
    key = written_path(w, name)
    wrote, content = written_code(w, key) if key is not None else (False, None)
    if not wrote:
        return Stdin("file")
    return Stdin("pipe") if content is None else Stdin("text", content)


def _printed_files(w: Walker, argv: list[str]) -> Stdin | None:
    """What a command that prints the files it names hands a pipe (`cat F | bash`, `gunzip -c
    dump.sql.gz | psql`): what `< F` would, a file the line wrote as what it holds when it is
    one file printed as it is; None when the command is no such printer here."""
    from guard.knowledge import command_for

    printer = command_for(argv[0]).prints_files
    options = [a for a in argv[1:] if a.startswith("-") and a != "-"]
    names = [a for a in argv[1:] if not a.startswith("-")]
    letters = "".join(o[1:] for o in options if not o.startswith("--"))
    if (
        printer is None
        or not names
        or "-" in argv[1:]  # its own input passed on (`cat x.sh - | bash`)
        or any(a.startswith(("/dev/", "/proc/")) for a in names)  # a descriptor's
        or (len(letters) != sum(len(o) - 1 for o in options))  # a long option
        or not set(printer.needs) <= set(letters) <= set(printer.allows)
    ):
        return None
    found = [file_stdin(w, name) for name in names]
    written = [f for f in found if f.kind != "file"]
    if not written:
        return Stdin("file")
    return written[0] if len(names) == 1 and not printer.unpacks else Stdin("pipe")


def produced_roots(w: Walker, node: Node) -> tuple[str, ...] | None:
    """Where the paths a simple command prints lie, when it is a known producer
    (`find src -name '*.py'`, `git ls-files`): see guard/knowledge/producers.py."""
    from guard.languages import printed_roots

    argv = static_argv(w, node)
    return printed_roots(argv) if argv else None


def produced_listing(w: Walker, node: Node) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """`produced_roots`, and the protected files below them the producer may print
    (recursive_reads.listed_secrets)."""
    from guard.languages import printed_roots
    from guard.projection.recursive_reads import listed_secrets

    argv = static_argv(w, node)
    roots = printed_roots(argv) if argv else None
    if argv is None or roots is None:
        return roots, ()
    return roots, listed_secrets(w, argv, roots)


def static_argv(w: Walker, node: Node) -> list[str] | None:
    """The argv of a simple command made of literal words only (no expansions), else None."""
    if node.type != "command":
        return None
    argv: list[str] = []
    for child in node.named_children:
        word = child.named_children[0] if child.type == "command_name" else child
        if child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect", "comment"):
            continue
        if word.type == "word" or word.type == "number":
            raw = w.src[word.start_byte : word.end_byte]
            text = plain_word(raw)
            if text is None and b"$" not in raw and b"`" not in raw:  # HEAD~1, *.py, a\ b
                text = w.evaluator().value(word).single()
        elif word.type == "raw_string" or (word.type == "string" and not word.named_children):
            text = w.text(word)[1:-1]
        elif word.type == "string" and all(c.type == "string_content" for c in word.named_children):
            text = w.text(word)[1:-1]
            text = None if "\\" in text else text
        else:
            return None
        if text is None:
            return None
        argv.append(text)
    return argv
