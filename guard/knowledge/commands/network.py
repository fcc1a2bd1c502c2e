"""Network tools: ssh, scp, rsync, curl, wget and proxies — local files they read and write."""

from __future__ import annotations

from guard.knowledge.commands.files import COPY
from guard.knowledge.commands.spec import Spec, opts

# `ssh -o KEY=VALUE` settings that run a local command.
SSH_CODE_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})


# rclone's options whose values are data: filter rules, counts, rates, ages and sizes
RCLONE_TEXT = opts(
    "--filter", "--transfers", "--checkers", "--bwlimit", "--max-age", "--min-age",
    "--max-size", "--min-size",
)  # fmt: skip


SPECS: dict[str, Spec] = {
    "ssh": Spec(
        operands="data",
        values=opts(
            "-p",
            "-l",
            "-o",
            "-L",
            "-R",
            "-D",
            "-J",
            "-W",
            "-b",
            "-c",
            "-e",
            "-m",
            "-O",
            "-Q",
            "-w",
            "-B",
        ),
        options={"-i": "read", "-F": "read", "-o": "ssh-option", "-E": "write", "-S": "read"},
    ),
    "rsync": COPY._replace(
        options={
            **COPY.options,
            "-e": "code",
            "--rsh": "code",
            "--rsync-path": "code",
            "--files-from": "file-list",
            "--exclude-from": "read",
            "--include-from": "read",
        }
    ),
    "scp": COPY._replace(options={**COPY.options, "-S": "code", "-o": "ssh-option"}),
    "curl": Spec(
        operands="url",
        values=opts(
            "-X",
            "--request",
            "-u",
            "--user",
            "-A",
            "--user-agent",
            "-e",
            "--referer",
            "-m",
            "--max-time",
            "--connect-timeout",
            "-x",
            "--proxy",
            "-r",
            "--range",
            "--retry",
            "--form-string",
            "--data-raw",
            "-C",
        ),
        options={
            "-H": "curl-data",
            "--header": "curl-data",
            "-w": "curl-data",
            "--write-out": "curl-data",
            "--proxy-header": "curl-data",
            "--url-query": "curl-data",
            "--url": "url",
            "-d": "curl-data",
            "--data": "curl-data",
            "--data-ascii": "curl-data",
            "--data-binary": "curl-data",
            "--json": "curl-data",
            "--data-urlencode": "curl-form",
            "--variable": "curl-form",
            "-F": "curl-form",
            "--form": "curl-form",
            "-b": "curl-cookie",
            "--cookie": "curl-cookie",
            "--capath": "read",
            "--netrc-file": "read",
            "--crlfile": "read",
            "--pubkey": "read",
            "--proxy-cacert": "read",
            "--proxy-cert": "read",
            "--proxy-key": "read",
            "--etag-compare": "read",
            "--unix-socket": "read",
            "--trace": "write",
            "--trace-ascii": "write",
            "--stderr": "write",
            "--libcurl": "write",
            "--etag-save": "write",
            "--hsts": "write",
            "--alt-svc": "write",
            "-o": "write",
            "--output": "write",
            "-T": "read",
            "--upload-file": "read",
            "-K": "file-list",  # a config file: more options, not known here
            "--config": "file-list",
            "-c": "write",
            "--cookie-jar": "write",
            "--cacert": "read",
            "--cert": "read",
            "--key": "read",
            "--output-dir": "write",
            "-D": "write",
            "--dump-header": "write",
        },
    ),
    "wget": Spec(
        operands="data",
        values=opts(
            "-U",
            "--user-agent",
            "--header",
            "-t",
            "--tries",
            "-T",
            "--timeout",
            "--user",
            "--password",
        ),
        options={
            "-e": "wgetrc",
            "--execute": "wgetrc",
            "--post-file": "read",
            "--body-file": "read",
            "--load-cookies": "read",
            "--ca-certificate": "read",
            "--certificate": "read",
            "--private-key": "read",
            "--config": "file-list",
            "--use-askpass": "code",
            "-O": "write",
            "--output-document": "write",
            "-P": "write",
            "--directory-prefix": "write",
            "-o": "write",
            "--append-output": "write",
            "--rejected-log": "write",
            "--save-cookies": "write",
            "--warc-file": "write",
            "--hsts-file": "write",
            "--output-file": "write",
            "-a": "write",
            "-i": "read",
            "--input-file": "read",
        },
    ),
    "proxychains": Spec(kind="wrapper", operands="command", options={"-f": "read"}),
    "proxychains4": Spec(kind="wrapper", operands="command", options={"-f": "read"}),
    "torsocks": Spec(
        kind="wrapper", operands="command", values=opts("-u", "-p", "-a", "-P", "--user", "--pass")
    ),
    # rclone SUBCOMMAND [remote:]PATH…: a `remote:path` is not a local path; a local one is
    "rclone": Spec(
        subcommands=True,
        values=RCLONE_TEXT
        | opts("--config", "--include", "--exclude", "--log-file", "--files-from")
        | opts("--include-from", "--exclude-from", "--filter-from"),
        text=RCLONE_TEXT,
        options={
            "--config": "read",
            "--include-from": "read",
            "--exclude-from": "read",
            "--filter-from": "read",
            "--files-from": "read",
            "--log-file": "write",
        },
    ),
}
