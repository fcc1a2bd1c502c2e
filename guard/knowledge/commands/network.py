"""Network tools: ssh, scp, rsync, curl, wget and proxies — local files they read and write."""

from __future__ import annotations

from guard.knowledge.commands.command import EXACT, Command, HomeFile, RecursiveRead, arity
from guard.knowledge.commands.effect import E, Tool, spec_values
from guard.knowledge.commands.files import COPY
from guard.knowledge.commands.spec import Spec, opts

# `ssh -o KEY=VALUE` settings that run a local command.
SSH_CODE_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})


# rclone's options whose values are data: filter rules, counts, rates, ages and sizes
RCLONE_TEXT = opts(
    "--filter", "--transfers", "--checkers", "--bwlimit", "--max-age", "--min-age",
    "--max-size", "--min-size",
)  # fmt: skip


_SSH_SPEC = Spec(
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
)

_CURL_SPEC = Spec(
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
        "-E": "read",  # --cert
        "--key": "read",
        "--output-dir": "write",
        "-D": "write",
        "--dump-header": "write",
    },
)

_WGET_SPEC = Spec(
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
)

_RCLONE_SPEC = Spec(
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
)

_ANSIBLE_TOOL = Tool(
    values=opts(
        "-i",
        "--inventory",
        "-m",
        "--module-name",
        "-a",
        "--args",
        "-u",
        "-l",
        "--limit",
        "-e",
        "--extra-vars",
        "-h",
        "-H",
        "-w",
        "-l",
    ),
    effects=(
        E(
            "remote",
            "ansible",
            "runs commands on the hosts of an inventory",
            without=("--syntax-check", "--list-hosts", "--list-tasks", "-C", "--check"),
        ),
    ),
)

_HTTP_TOOL = Tool(
    values=opts("-a", "--auth", "-A", "--auth-type", "-o", "--output", "--session"),
    effects=(
        E("destroy", "http", "sends an HTTP DELETE", sub=("DELETE|delete",)),
        E("publish", "http", "sends data to another machine", check="http-upload"),
    ),
)

_IPTABLES_TOOL = Tool(
    values=opts("-t", "--table"),
    effects=(
        E(
            "system",
            "firewall",
            "changes the firewall rules",
            flags=(
                "-F",
                "--flush",
                "-X",
                "--delete-chain",
                "-P",
                "--policy",
                "-D",
                "--delete",
                "-A",
                "--append",
                "-I",
                "--insert",
                "-R",
                "--replace",
            ),
        ),
    ),
)

_NC_TOOL = Tool(
    values=opts("-p", "-s", "-w", "-i", "-q", "-x", "-X", "-e", "-c", "-W", "-I", "-O"),
    effects=(E("publish", "tcp", "sends its input to another machine", check="fed-to-host"),),
)

# firewall-cmd's options that change the rules (the others list or query them)
_FIREWALLD_CHANGES = (
    *(
        f"--{verb}-{what}"
        for verb in ("add", "remove", "change", "set", "new", "delete")
        for what in (
            *("service", "port", "rich-rule", "source", "interface", "masquerade"),
            *("forward-port", "protocol", "icmp-block", "source-port", "zone"),
            *("policy", "target", "default-zone", "ingress-zone", "egress-zone"),
        )
    ),
    *("--reload", "--complete-reload", "--runtime-to-permanent", "--panic-on"),
)


COMMANDS: dict[str, Command] = {
    "ssh-keygen": Command(  # a new key goes to ~/.ssh, unless -f names the file or it only reads
        home=(HomeFile(".ssh", "write"),),
        home_elsewhere=frozenset({"f", "l", "y", "F", "Q", "k", "L", "D"}),
    ),
    # ssh-copy-id HOST: your public keys (~/.ssh/*.pub, or -i FILE) appended to HOST's
    # authorized_keys: a login on HOST from here on
    "ssh-copy-id": Command(
        home=(HomeFile(".ssh", "read"),),
        home_elsewhere=frozenset({"-i"}),
        effects=Tool(
            values=opts("-i", "-p", "-o", "-F", "-t"),
            effects=(E("remote", "ssh", "installs your keys to log in on another machine"),),
        ),
    ),
    "ssh": Command(
        spec=_SSH_SPEC,
        effects=Tool(
            ends_at_operand=True,
            values=spec_values(_SSH_SPEC),
            effects=(E("remote", "ssh", "runs code on another machine", check="ssh"),),
        ),
        arity=arity(EXACT),
    ),
    "rsync": Command(
        # what copies a whole tree to another machine hands its secrets over
        recursive_read=RecursiveRead(opts("-r", "--recursive", "-a", "--archive"), True),
        dry_run=opts("-n", "--dry-run"),
        spec=COPY._replace(
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
        effects=Tool(
            values=opts(
                "-e",
                "--rsh",
                "--rsync-path",
                "--exclude",
                "--include",
                "--filter",
                "-f",
                "--files-from",
                "--exclude-from",
                "--include-from",
                "--chmod",
                "-T",
                "--temp-dir",
                "--backup-dir",
                "--suffix",
                "--port",
                "--bwlimit",
            ),
            abbreviations=True,
            effects=(
                E(
                    "destroy",
                    "files",
                    "rsync --delete removes files from the destination",
                    check="rsync-delete",
                ),
                E("publish", "ssh", "copies files to another machine", check="copy-to-remote"),
            ),
        ),
    ),
    "scp": Command(
        recursive_read=RecursiveRead(opts("-r"), True),
        spec=COPY._replace(options={**COPY.options, "-S": "code", "-o": "ssh-option"}),
        effects=Tool(
            values=opts("-P", "-i", "-F", "-o", "-S", "-l", "-c", "-J", "-D", "-X"),
            effects=(
                E("publish", "ssh", "copies files to another machine", check="copy-to-remote"),
            ),
        ),
    ),
    "curl": Command(
        corners=frozenset({"downloads"}),
        spec=_CURL_SPEC,
        effects=Tool(
            values=spec_values(_CURL_SPEC),
            effects=(
                E("destroy", "http", "sends an HTTP DELETE", check="http-delete"),
                E("publish", "http", "sends data to another machine", check="http-upload"),
            ),
        ),
    ),
    "wget": Command(
        corners=frozenset({"downloads"}),
        spec=_WGET_SPEC,
        effects=Tool(
            values=spec_values(_WGET_SPEC) | opts("--method", "--body-data", "--body-file"),
            effects=(
                E("destroy", "http", "sends an HTTP DELETE", check="http-delete"),
                E("publish", "http", "sends data to another machine", check="http-upload"),
            ),
        ),
    ),
    "proxychains": Command(spec=Spec(kind="wrapper", operands="command", options={"-f": "read"})),
    "proxychains4": Command(spec=Spec(kind="wrapper", operands="command", options={"-f": "read"})),
    "torsocks": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-u", "-p", "-a", "-P", "--user", "--pass"),
        )
    ),
    "rclone": Command(
        spec=_RCLONE_SPEC,
        effects=Tool(
            values=spec_values(_RCLONE_SPEC),
            effects=(
                E(
                    "destroy",
                    "rclone",
                    "deletes files from a remote",
                    sub=("delete|deletefile|purge|rmdir|rmdirs|cleanup",),
                    without=("--dry-run", "-n"),
                ),
                E(
                    "destroy",
                    "rclone",
                    "sync deletes what the source does not have from the destination",
                    sub=("sync|bisync",),
                    without=("--dry-run", "-n"),
                ),
                E(
                    "destroy",
                    "rclone",
                    "move deletes the files it copied from the source",
                    sub=("move|moveto",),
                    without=("--dry-run", "-n"),
                ),
            ),
        ),
        subcommands=True,
    ),
    "ansible": Command(effects=_ANSIBLE_TOOL),
    "ansible-playbook": Command(effects=_ANSIBLE_TOOL),
    "pssh": Command(effects=_ANSIBLE_TOOL),
    "parallel-ssh": Command(effects=_ANSIBLE_TOOL),
    "pdsh": Command(effects=_ANSIBLE_TOOL),
    "http": Command(effects=_HTTP_TOOL, own_rows="its DELETE row is the method, not a subcommand"),
    "https": Command(effects=_HTTP_TOOL, own_rows="its DELETE row is the method, not a subcommand"),
    "xh": Command(effects=_HTTP_TOOL, own_rows="its DELETE row is the method, not a subcommand"),
    "xhs": Command(effects=_HTTP_TOOL, own_rows="its DELETE row is the method, not a subcommand"),
    "ip": Command(
        effects=Tool(
            values=opts("-n", "-netns", "-f", "-family", "-b", "-batch", "-rc", "-rcvbuf"),
            single_dash_long=True,
            effects=(
                E(
                    "system",
                    "network",
                    "changes the network configuration",
                    sub=(
                        "l|li|lin|link|a|ad|add|addr|addre|addres|address|r|ro|rou|rout|route|ru|rul"
                        "|rule|n|ne|nei|neigh|neighbor|neighbour|tunnel|tun|tuntap|netns|maddr"
                        "|mroute|vrf|xfrm|token|nexthop|mptcp|macsec|sr|l2tp|fou|tcp_metrics",
                        "add|a|del|delete|d|set|change|chg|replace|repl|flush|f|append|prepend"
                        "|save|restore|attach|detach|exec|identify|flush",
                    ),
                ),
                E(
                    "system",
                    "network",
                    "changes the network's IPsec state",
                    sub=(
                        "x|xf|xfr|xfrm",
                        "state|policy|s|st|p|po|pol",
                        "add|update|delete|deleteall|flush|set|a|d|u|f",
                    ),
                ),
            ),
        ),
        own_rows="its rows name every change to the network",
    ),
    **dict.fromkeys(
        ("iptables-restore", "ip6tables-restore", "iptables-legacy-restore", "nft-restore"),
        Command(
            effects=Tool(
                effects=(
                    E(
                        "system",
                        "firewall",
                        "replaces the firewall rules with what it reads",
                        without=("-t", "--test"),
                    ),
                )
            )
        ),
    ),
    "ip6tables": Command(effects=_IPTABLES_TOOL),
    "iptables": Command(effects=_IPTABLES_TOOL),
    "nft": Command(
        effects=Tool(
            effects=(
                E(
                    "system",
                    "firewall",
                    "changes the firewall rules",
                    sub=("flush|add|delete|insert|replace|create|destroy",),
                ),
            )
        ),
        own_rows="its rows name every change to the firewall",
    ),
    "ufw": Command(
        effects=Tool(
            effects=(
                E(
                    "system",
                    "firewall",
                    "changes the firewall rules",
                    sub=("enable|disable|reset|allow|deny|reject|limit|delete|insert",),
                ),
            )
        ),
        own_rows="its rows name every change to the firewall",
    ),
    # firewalld: every option that adds, removes, sets or reloads changes the rules
    "firewall-cmd": Command(
        effects=Tool(
            values=opts("--zone", "--policy", "--ipset", "--service", "--helper"),
            effects=(
                E(
                    "system",
                    "firewall",
                    "changes the firewall rules",
                    flags=_FIREWALLD_CHANGES,
                ),
                E("system", "firewall", "changes the firewall rules", word="--direct"),
            ),
        ),
        own_rows="its rows name every change to the firewall",
    ),
    "nc": Command(effects=_NC_TOOL),
    "ncat": Command(effects=_NC_TOOL),
    "netcat": Command(effects=_NC_TOOL),
    "nmcli": Command(
        effects=Tool(
            values=opts("-f", "--fields", "-g", "--get-values", "-e", "--escape", "-w", "--wait"),
            effects=(
                E(
                    "system",
                    "network",
                    "changes network connections",
                    word="down|up|delete|del|modify|mod|disconnect|connect|off|on|add|reload|import"
                    "|set|reapply|hostname",
                ),
            ),
        )
    ),
    "sftp": Command(
        effects=Tool(
            values=opts(
                "-b", "-B", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-s"
            ),
            effects=(E("publish", "ssh", "may copy files to another machine", check="sftp-host"),),
        )
    ),
}
