"""Redirects, heredocs, here-strings and `[[ … ]]` tests.

Redirect targets are reads or writes; fd duplications (`2>&1`, `<&0`, `>&-`) are not accesses.
A heredoc body is data, unless its delimiter is unquoted and the body holds `$( )` or backticks,
which run; fed to a shell, a heredoc or here-string is code.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from guard.knowledge import FILE_TEST_OPERATORS
from guard.projection.accesses import access, wrote_text
from guard.projection.pipe_input import file_stdin, static_argv
from guard.projection.requests import Access
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import Handler, Walker, dynamic, run_code, substitution_stdin
from guard.projection.words import own_start

_READS = frozenset({"<"})
_DUPS = frozenset({">&", "<&", ">&-", "<&-"})
_ARITHMETIC_CODE = re.compile(r"\[[^\]]*(\$\(|`)")
_BACKTICK = re.compile(r"(?<!\\)`((?:[^`\\]|\\.)*)`", re.S)


def redirect_stdin(w: Walker, redirects: list[Node], stdin: Stdin | None) -> Stdin | None:
    """What a command reads on standard input, given its redirects (the last one wins)."""
    for r in redirects:
        if r.type == "herestring_redirect":
            words = [c for c in r.children if c.is_named]
            value = w.evaluator().value(words[0]) if words else None
            text = value.single() if value is not None else None
            stdin = Stdin("text", text)
        elif r.type == "heredoc_redirect":
            _misread_body(w, r)
            body = next((c for c in r.children if c.type == "heredoc_body"), None)
            stdin = Stdin("text", _heredoc_code(w, r), raw=w.text(body) if body else "")
        elif r.type == "file_redirect" and _descriptor(w, r) in ("", "0"):
            op = _operator(r)
            target = r.child_by_field_name("destination")
            text = None if target is None else w.evaluator().value(target).single()
            if op == "<":
                # a pipe in disguise (`< <(cmd)`, /dev/fd/N) carries what another command wrote
                piped = (
                    text is None
                    or text.startswith(("/dev/fd/", "/proc/"))
                    or (text in ("/dev/stdin",) and stdin is not None and stdin.kind != "terminal")
                )
                # a file this line writes (`echo … > x.sh; bash < x.sh`): its text
                stdin = Stdin("pipe") if piped or text is None else file_stdin(w, text)
            elif op == "<&" and text not in ("0", "-"):
                stdin = Stdin("pipe")  # another descriptor: whatever it was opened on
    return stdin


def visit_redirect(w: Walker, node: Node, depth: int) -> None:
    if node.type == "heredoc_redirect":
        _heredoc(w, node, depth)
        return
    if node.type == "herestring_redirect":
        w.collect_words(node, depth)
        return
    op = _operator(node)
    target = node.child_by_field_name("destination")
    if target is None:
        return
    ev = w.evaluator()
    value = ev.value(target)
    w.walk_substitutions(ev, depth)
    text = value.single()
    if op in _DUPS:
        if target.type == "number" or (text is not None and (text.isdigit() or text == "-")):
            return
        if op.startswith("<"):
            return
    arg = Arg(text, w.span(target), w.text(target), value.unknown)
    if text is None:
        why = value.unknown or "the target expands to several words"
        dynamic(w, arg, "redirect", f"a redirect target is not known: {why}")
        return
    mode: Access = "read" if op in _READS else "write"
    if w.read_write and op == ">|" and _operator_at(node) in w.read_write:
        access(w, arg, text, "read", "redirect")  # `<>`: opened to read and to write
    access(w, arg, text, mode, "redirect")


def _operator_at(node: Node) -> int:
    for child in node.children:
        if not child.is_named:
            return child.start_byte
    return -1


def _operator(node: Node) -> str:
    for child in node.children:
        if not child.is_named:
            return child.type
    return ""


def _descriptor(w: Walker, node: Node) -> str:
    d = node.child_by_field_name("descriptor")
    return "" if d is None else w.text(d)


def _quoted_delimiter(w: Walker, node: Node) -> bool:
    start = next((c for c in node.children if c.type == "heredoc_start"), None)
    return start is not None and any(q in w.text(start) for q in "'\"\\")


def _heredoc(w: Walker, node: Node, depth: int) -> None:
    if _quoted_delimiter(w, node):
        return
    body = next((c for c in node.children if c.type == "heredoc_body"), None)
    if body is None:
        return
    w.collect_words(body, depth)
    pos = body.start_byte
    for child in body.children:
        if child.is_named and child.type != "heredoc_content":
            _backticks(w, pos, child.start_byte, depth)
            pos = child.end_byte
    _backticks(w, pos, body.end_byte, depth)


def _backticks(w: Walker, start_byte: int, end_byte: int, depth: int) -> None:
    """tree-sitter leaves backticks in heredoc text unparsed: their commands still run."""
    text = w.src[start_byte:end_byte].decode("utf-8", "replace")
    for match in _BACKTICK.finditer(text):
        start = start_byte + len(text[: match.start()].encode())
        span = (start, start + len(match.group(0).encode()))
        w.ran.add(start)
        arg = Arg(match.group(1), w.fixed_span or span, match.group(0))
        saved = w.scope
        w.scope = w.scope.copy()
        run_code(w, match.group(1), arg, depth, new_process=False, via="`…`")
        w.scope = saved


def _misread_body(w: Walker, node: Node) -> None:
    """tree-sitter-bash reads some heredoc bodies (one starting with `\\`) as words of the
    redirect: what bash reads as the body, the tree holds as arguments. Bash wins: it asks."""
    start = next((c for c in node.children if c.type == "heredoc_start"), None)
    if start is None:
        return
    newline = w.src.find(b"\n", start.end_byte)
    if newline < 0:
        return
    for child in node.named_children:
        if child.type not in _HEREDOC_PARTS and child.start_byte > newline:
            arg = Arg(None, w.span(child), w.text(child))
            dynamic(w, arg, "code", "the parser and bash may read this differently (a heredoc)")
            return


_HEREDOC_PARTS = frozenset({"heredoc_start", "heredoc_body", "heredoc_end", "heredoc_content"})


def _heredoc_code(w: Walker, node: Node) -> str | None:
    """A heredoc's body as code for a shell that reads it (unquoted: only if it has no `$`)."""
    body = next((c for c in node.children if c.type == "heredoc_body"), None)
    if body is None:
        return ""
    text = w.text(body)
    if not _quoted_delimiter(w, node) and ("$" in text or "`" in text or "\\" in text):
        return None
    strip = any(c.type == "<<-" for c in node.children)
    if strip:
        text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
    return text


def written_text(w: Walker, node: Node, redirects: list[Node], stdin: Stdin | None) -> None:
    """`echo … > f`, `printf … > f`, `cat > f <<'EOF' … EOF`: what the one file the command's
    output goes to holds afterwards, when the command's words say it (a later `bash f` reads
    it; accesses.py)."""
    outputs = [
        r
        for r in redirects
        if r.type == "file_redirect"
        and _operator(r) in (">", ">|")
        and _descriptor(w, r) in ("", "1")
    ]
    target = outputs[0].child_by_field_name("destination") if len(outputs) == 1 else None
    argv = static_argv(w, node) if target is not None else None
    if target is None or not argv:
        return
    from guard.languages import printed_text

    if argv[0] in ("echo", "printf"):
        content = printed_text(argv)
    elif argv in (["cat"], ["cat", "-"]) and stdin is not None and stdin.kind == "text":
        content = stdin.text
    else:
        return
    where = w.evaluator().value(target).single()
    if content is not None and where is not None:
        wrote_text(w, where, content)


def _redirected_statement(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    body = node.child_by_field_name("body")
    redirects = [c for c in node.children if c.is_named and c != body]
    inner_stdin = redirect_stdin(w, redirects, stdin)
    if body is not None and body.type in ("list", "pipeline") and _reads_what_it_writes(
        w, body, redirects
    ):
        # `echo … > x.sh && bash < x.sh`: tree-sitter-bash hangs `< x.sh` on the whole list, read
        # before the list writes x.sh; bash gives it to the last command, which reads what the
        # list wrote, not known here
        inner_stdin = Stdin("pipe")
    for r in redirects:
        visit_redirect(w, r, depth)
    # tree-sitter-bash hangs `a && b > f` and `a | b > f` on the whole list; bash gives the
    # redirect to the last command (and there a pipe is its input)
    last, last_stdin = body, inner_stdin
    while last is not None and last.type in ("list", "pipeline") and last.named_child_count:
        if last.type == "pipeline":
            last_stdin = Stdin("pipe")
        last = last.named_children[-1]
    if last is not None and last.type == "command":
        written_text(w, last, redirects, last_stdin)
    if body is not None:
        w.push_visit(body, depth + 1, inner_stdin)


def _reads_what_it_writes(w: Walker, body: Node, redirects: list[Node]) -> bool:
    """Whether a `<` redirect hung on a list names a file a redirect inside the list writes."""
    reads = {
        w.text(t)
        for r in redirects
        if r.type == "file_redirect"
        and _operator(r) == "<"
        and (t := r.child_by_field_name("destination")) is not None
    }
    if not reads:
        return False
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "file_redirect" and _operator(n) in (">", ">|", ">>", "&>", "&>>"):
            target = n.child_by_field_name("destination")
            if target is not None and w.text(target) in reads:
                return True
        stack.extend(n.named_children)
    return False


def _test_command(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    """`[[ -f x ]]`, `[ -d y ]`: file tests read paths; everything else only runs substitutions."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "unary_expression":
            op = next((c for c in n.children if c.type == "test_operator"), None)
            operand = n.children[-1] if n.children else None
            if op is not None and operand is not None and w.text(op) in FILE_TEST_OPERATORS:
                ev = w.evaluator()
                value = ev.value(operand)
                w.walk_substitutions(ev, depth)
                text = value.single()
                arg = Arg(text, w.span(operand), w.text(operand), value.unknown)
                if text is None:
                    dynamic(w, arg, "path", f"a path tested is not known: {value.unknown}")
                else:
                    access(w, arg, text, "read", "test")
                continue
        if n.type in ("command_substitution", "process_substitution"):
            w.ran.add(own_start(w.src, n))
            named = [c for c in n.children if c.is_named]
            w.push_subshell(named, depth + 1, substitution_stdin(w.src, n))
            continue
        if n.type in ("word", "raw_string", "string") and _ARITHMETIC_CODE.search(w.text(n)):
            arg = Arg(None, w.span(n), w.text(n), "a subscript that runs code")
            dynamic(w, arg, "code", "the test evaluates a subscript that runs code")
            continue
        stack.extend(n.children)


NODES: dict[str, Handler] = {
    "redirected_statement": _redirected_statement,
    "test_command": _test_command,
    "file_redirect": lambda w, n, d, s: visit_redirect(w, n, d),
    "heredoc_redirect": lambda w, n, d, s: visit_redirect(w, n, d),
    "herestring_redirect": lambda w, n, d, s: visit_redirect(w, n, d),
}
