"""Command knowledge: options that take values, scripts in other languages, file lists, wrappers,
compilers and git subcommands, each projected onto the paths and code they reach.

Pure: a fixed context (workspace /w/proj, home /h/u), tables of lines and the requests they must
give. `/o/…` stands for any path outside the workspace.
"""

from __future__ import annotations

import pytest
from projected import H, dynamic_roles, external, run


def commands(line: str) -> list[str]:
    return [r.argv[0] for r in run(line).requests if r.surface == "command" and r.argv]


# (line, external (path, access) pairs)
EXTERNAL = [
    # grep: GNU grep's flags are flags; rg, ag and ack have their own
    ("grep -r . /o", {("/o", "read")}),
    # rclone: remote:path operands are not local paths; its file options are
    ("rclone copy /o/notes remote:backup", {("/o/notes", "read")}),
    ("rclone ls remote:bucket", set()),
    ("rclone --config /o/rclone.conf lsd remote:", {("/o/rclone.conf", "read")}),
    (
        "rclone sync src remote:x --exclude-from /o/ex --log-file /o/log",
        {("/o/ex", "read"), ("/o/log", "write")},
    ),
    ("rclone copy remote:x in --include '/o/*.jpg' --max-age 1d", set()),
    ("grep -T x /o/file", {("/o/file", "read")}),
    ("grep --color x /o/file", {("/o/file", "read")}),
    ("grep -rn TODO /o/src", {("/o/src", "read")}),
    ("grep --exclude-from=/o/ex x f", {("/o/ex", "read")}),
    ("rg -r new old /o/src", {("/o/src", "read")}),
    ("rg -T js x /o/src", {("/o/src", "read")}),
    ("rg --ignore-file /o/ign x", {("/o/ign", "read")}),
    ("ag -f x /o/src", {("/o/src", "read")}),
    ("ag -p /o/ign x", {("/o/ign", "read")}),
    ("ack -f /o/src", {("/o/src", "read")}),
    # sed: -E is a flag; r/R read, w/W write, e runs shell code
    ("sed -E '1e cat /o/secret' f", {("/o/secret", "read")}),
    ("sed 'r /o/secret' f", {("/o/secret", "read")}),
    ("sed '1R /o/secret' f", {("/o/secret", "read")}),
    ("sed '$w /o/out' f", {("/o/out", "write")}),
    ("sed '/x/W /o/out' f", {("/o/out", "write")}),
    ("sed 's/a/b/w /o/out' f", {("/o/out", "write")}),
    ("sed '1~1e cat /o/s' f", {("/o/s", "read")}),
    ("sed '1,+2e cat /o/s' f", {("/o/s", "read")}),
    ("sed '1,~4e cat /o/s' f", {("/o/s", "read")}),
    ("sed '0,/re/e cat /o/s' f", {("/o/s", "read")}),
    ("sed -n '/a/,/b/{e cat /o/s\n}' f", {("/o/s", "read")}),
    ("sed -e 's/a/b/' -e '1r /o/x' f", {("/o/x", "read")}),
    ("sed -f /o/prog f", {("/o/prog", "read")}),
    # awk: getline from a file
    ("awk 'BEGIN{while((getline l < \"/o/secret\")>0) print l}'", {("/o/secret", "read")}),
    ("awk '{getline < \"/o/s\"; print}' f", {("/o/s", "read")}),
    ("awk -i /o/lib.awk 1 f", {("/o/lib.awk", "read")}),
    # Miller: its files are read, written in place with -I; its DSL's redirects write
    ("mlr --icsv --opprint cat /o/data.csv", {("/o/data.csv", "read")}),
    ("mlr --icsv sort -f name then head -n 4 /o/d.csv", {("/o/d.csv", "read")}),
    ("mlr -I --csv sort -f a /o/d.csv", {("/o/d.csv", "read"), ("/o/d.csv", "write")}),
    ("mlr --from /o/d.csv --icsv head", {("/o/d.csv", "read")}),
    ("mlr --icsv put -q 'tee > \"/o/out.csv\", $*' d.csv", {("/o/out.csv", "write")}),
    ("mlr --icsv put -q 'print >> \"/o/log\", $a' d.csv", {("/o/log", "write")}),
    ("mlr --icsv put -q 'emit > \"/o/sums\", @sum' d.csv", {("/o/sums", "write")}),
    ("mlr --prepipe 'cat /o/secret' --icsv cat d.csv", {("/o/secret", "read")}),
    ("mlr --load /o/lib.mlr --icsv cat d.csv", {("/o/lib.mlr", "read")}),
    # lists of files: the list is read
    ("tar -T /o/list -cf a.tar", {("/o/list", "read")}),
    ("tar --files-from=/o/list -cf a.tar", {("/o/list", "read")}),
    ("wc --files0-from=/o/list", {("/o/list", "read")}),
    ("du --files0-from /o/list", {("/o/list", "read")}),
    ("sort --files0-from=/o/list", {("/o/list", "read")}),
    ("rsync --files-from=/o/list . dest/", {("/o/list", "read")}),
    # curl and wget upload files
    ("curl file:///o/secret", {("/o/secret", "read")}),
    ("curl FILE://localhost/o/secret", {("/o/secret", "read")}),
    ("curl --url file:///o/secret", {("/o/secret", "read")}),
    ("curl -d @/o/secret https://example.com", {("/o/secret", "read")}),
    ("curl --data-binary @/o/secret https://example.com", {("/o/secret", "read")}),
    ("curl --data-urlencode name@/o/secret https://example.com", {("/o/secret", "read")}),
    ("curl -F 'f=@/o/secret' https://example.com", {("/o/secret", "read")}),
    ("curl -F 'f=</o/secret;type=text/plain' https://example.com", {("/o/secret", "read")}),
    ("curl -T /o/secret https://example.com", {("/o/secret", "read")}),
    ("curl -b /o/cookies https://example.com", {("/o/cookies", "read")}),
    ("wget --post-file /o/secret https://example.com", {("/o/secret", "read")}),
    ("wget --body-file=/o/secret https://example.com", {("/o/secret", "read")}),
    ("wget -e output_document=/o/x https://example.com", {("/o/x", "write")}),
    # make
    ("make SHELL=/o/sh", {("/o/sh", "execute")}),
    # watch runs its operands joined, with sh -c
    ("watch -n1 'cat /o/secret'", {("/o/secret", "read")}),
    ("watch -d cat /o/secret", {("/o/secret", "read")}),
    ("watch -x cat /o/secret", {("/o/secret", "read")}),
    ("watch -n 1 cat /o/x", {("/o/x", "read")}),
    # git config that runs programs later, and where it is written
    ("git config alias.x '!cat /o/secret'", {("/o/secret", "read")}),
    (
        "git config --global alias.x '!cat /o/secret'",
        {("/o/secret", "read"), (f"{H}/.gitconfig", "write")},
    ),
    ("git config core.sshCommand 'cat /o/s'", {("/o/s", "read")}),
    ("git config --file /o/cfg user.name x", {("/o/cfg", "write")}),
    ("git config --system user.name x", {("/etc/gitconfig", "write")}),
    ("git config --global user.name x", {(f"{H}/.gitconfig", "write")}),
    ("git config --global --get user.name", {(f"{H}/.gitconfig", "read")}),
    # wrappers and ways to run a command
    ("busybox sh -c 'cat /o/x'", {("/o/x", "read")}),
    ("busybox cat /o/x", {("/o/x", "read")}),
    ("fakeroot cat /o/x", {("/o/x", "read")}),
    ("fakeroot -- sh -c 'cat /o/x'", {("/o/x", "read")}),
    ("setpriv --reuid 1000 --regid 1000 --init-groups sh -c 'cat /o/x'", {("/o/x", "read")}),
    ("prlimit --nofile=1024 cat /o/x", {("/o/x", "read")}),
    ("prlimit -p 1 --nofile=1024", set()),
    ("firejail --quiet cat /o/x", {("/o/x", "read")}),
    (
        "bwrap --ro-bind /usr /usr --bind . /w sh -c 'cat /o/x'",
        {("/usr", "read"), ("/o/x", "read")},
    ),
    ("bwrap --bind /o/d /mnt cat /mnt/y", {("/o/d", "write"), ("/mnt/y", "read")}),
    ("unshare -r sh -c 'cat /o/x'", {("/o/x", "read")}),
    ("systemd-run --user -p Nice=5 cat /o/x", {("/o/x", "read")}),
    ("dbus-run-session -- cat /o/x", {("/o/x", "read")}),
    ("xvfb-run -a -s '-screen 0 1x1x24' cat /o/x", {("/o/x", "read")}),
    ("su -l user -c 'cat /o/x'", {("/o/x", "read")}),
    ("su user -c 'cat /o/x'", {("/o/x", "read")}),
    ("runuser -l user -c 'cat /o/x'", {("/o/x", "read")}),
    ("runuser -u user -- cat /o/x", {("/o/x", "read")}),
    ("sg staff -c 'cat /o/x'", {("/o/x", "read")}),
    ("sg staff 'cat /o/x'", {("/o/x", "read")}),
    ("chpst -u user cat /o/x", {("/o/x", "read")}),
    ("cgexec -g cpu:grp cat /o/x", {("/o/x", "read")}),
    ("numactl -N 0 -m 0 cat /o/x", {("/o/x", "read")}),
    ("numactl --cpunodebind=0 cat /o/x", {("/o/x", "read")}),
    ("taskset -c 0 cat /o/x", {("/o/x", "read")}),
    ("nsenter -t 1 -m cat /o/x", {("/o/x", "read")}),
    # compilers and linkers
    ("gcc -x c /dev/null -c -o/o/pwn.o", {("/o/pwn.o", "write")}),
    ("gcc -o /o/app main.c", {("/o/app", "write")}),
    ("cc -fno-omit-frame-pointer -o /o/app main.c", {("/o/app", "write")}),
    ("gcc main.c -Wl,-o,/o/app", {("/o/app", "write")}),
    ("gcc -B/o/bin main.c", {("/o/bin", "execute")}),
    ("gcc -fplugin=/o/p.so main.c", {("/o/p.so", "execute")}),
    ("clang --output=/o/app main.c", {("/o/app", "write")}),
    ("g++ -MF /o/deps main.cc", {("/o/deps", "write")}),
    ("clang++ /o/main.cc", {("/o/main.cc", "read")}),
    ("ld -o /o/a.out x.o", {("/o/a.out", "write")}),
    ("ld -T /o/link.ld x.o -o out", {("/o/link.ld", "read")}),
    ("rustc -o /o/bin main.rs", {("/o/bin", "write")}),
    ("rustc --out-dir /o/d main.rs", {("/o/d", "write")}),
    ("go build -o /o/bin ./cmd", {("/o/bin", "write")}),
    ("go build -modfile=go.mod -o=/o/bin .", {("/o/bin", "write")}),
    ("go test -coverprofile /o/c.out ./...", {("/o/c.out", "write")}),
    ("javac -d /o/classes Main.java", {("/o/classes", "write")}),
    ("tsc --outDir /o/dist", {("/o/dist", "write")}),
    ("tsc --outdir /o/dist", {("/o/dist", "write")}),
    ("gcc @/o/args main.c", {("/o/args", "read")}),
    # git subcommands that write where they are told
    ("git archive -o /o/a.tar HEAD", {("/o/a.tar", "write")}),
    ("git archive --output=/o/a.tar HEAD", {("/o/a.tar", "write")}),
    ("git format-patch -o /o HEAD~1", {("/o", "write")}),
    ("git bundle create /o/b HEAD", {("/o/b", "write")}),
    ("git bundle verify /o/b", {("/o/b", "read")}),
    ("git worktree add /o/w", {("/o/w", "write")}),
    ("git worktree add -b topic /o/w main", {("/o/w", "write")}),
    ("git clone https://example.com/r.git /o/dir", {("/o/dir", "write")}),
    ("git clone /o/repo here", {("/o/repo", "read")}),
    ("git init --template=/o/tpl", {("/o/tpl", "execute")}),
    ("git init /o/new", {("/o/new", "write")}),
    ("git --exec-path=/o status", {("/o", "execute")}),
    ("git -C /o/r log", {("/o/r", "chdir")}),
    ("git rebase -x 'cat /o/s' main", {("/o/s", "read")}),
    ("git rebase --exec='cat /o/s' main", {("/o/s", "read")}),
    ("git submodule foreach 'cat /o/s'", {("/o/s", "read")}),
    ("git bisect run cat /o/s", {("/o/s", "read")}),
]


@pytest.mark.parametrize(("line", "expected"), EXTERNAL)
def test_commands_touch_the_paths_their_options_name(
    line: str, expected: set[tuple[str, str]]
) -> None:
    assert external(line) == expected


# (line, roles of dynamic requests)
DYNAMIC = [
    ("sed '1e' f", {"code"}),
    ("sed 's/.*/date/e' f", {"code"}),
    ("sed 'q;nonsense' f", {"code"}),
    ("awk '{getline l < $2}' f", {"path"}),
    ("awk '{while ((getline l < file) > 0) n++}' f", {"path"}),
    ("awk 'BEGIN{system(\"id\")}'", {"code"}),
    ("mlr -n put 'end { system(\"rm -rf ~/old\") }'", {"code"}),
    ("mlr -n put 'end { x = exec(\"id\", []) }'", {"code"}),
    ("mlr --icsv put -q 'tee | \"sh\", $*' d.csv", {"code"}),
    ("mlr --icsv filter -S 'system(\"id\") == \"\"' d.csv", {"code"}),
    ("mlr --icsv put -q 'tee > $a.\".csv\", $*' d.csv", {"path"}),
    ("xargs mlr -n put < args.txt", {"path"}),  # its DSL may come from the list
    ("sort --files0-from=- < list", {"path"}),
    ("find . | tar -T - -cf a.tar", {"path"}),
    ("tar --files-from list -cf a.tar", {"path"}),
    ("du --files0-from=list", {"path"}),
    ("wc --files0-from list", {"path"}),
    ("rsync --files-from=list . dest/", {"path"}),
    ("gcc @args main.c", {"path"}),
    ("curl -K cfg https://example.com", {"path"}),
    ("make -E '$(shell cat /o/s)'", {"code"}),
    ("make --eval='all:; cat /o/s'", {"code"}),
    ("make 'CC=$(shell id)'", {"code"}),
    ("make 'X!=id'", {"code"}),
    ("tar -xPf x.tar", {"path"}),
    ("tar xPf x.tar", {"path"}),
    ("tar --absolute-names -x -f x.tar", {"path"}),
    ("tar -x -P --transform 's,^,/o/,' -f x.tar", {"path"}),
    ('watch "$UNSET_X"', {"code"}),
    ('git config alias.x "$UNSET_X"', {"code"}),
]


@pytest.mark.parametrize(("line", "expected"), DYNAMIC)
def test_what_nobody_can_know_asks(line: str, expected: set[str]) -> None:
    assert dynamic_roles(line) == expected


# everyday forms: no path outside, nothing unknown
QUIET = [
    "grep -rn TODO src",
    "grep -r --include='*.py' -e foo .",
    "grep -A 3 -B2 --color=auto x f",
    "grep --color -n x f",
    "egrep -v '^#' f",
    "rg -n --type py foo src",
    "rg -g '*.md' -r bar foo",
    "ag -G py foo",
    "ack --type=python foo",
    "sed -E 's/a/b/' f",
    "sed -n '1,5p' f",
    "sed -i.bak 's/x/y/g' f",
    "sed -e '$a\\' f",
    "sed 's|/usr/local|/opt|g' f",
    "sed 's/[/]/x/' f",
    "sed '/^#/d; s/ *$//' f",
    "sed '1i\\header' f",
    "sed 'y/abc/xyz/' f",
    "sed -n '/start/,/end/{p}' f",
    "sed ':a;N;$!ba;s/\\n/ /g' f",
    "sed -z 's/\\n$//' f",
    "sed '3q' f",
    "sed 's/a/b/2g;s/c/d/I' f",
    "sed '/x/ !d' f",
    "sed '# comment\ns/a/b/' f",
    "awk '{print $1}' f",
    "awk -F: '{ if ((getline line) > 0) print line }' f",
    "awk 'NR < 3' f",
    "mlr --icsv --opprint sort -f name data.csv",
    "mlr --icsv --ojson put '$z = $x . $y' then filter '$z > 3' data.csv",
    "mlr --c2p head -n 5 then cut -f a,b data.csv",
    "mlr --icsv stats1 -a mean,max -f x -g a data.csv",
    "mlr -I --csv sort -f a data.csv",
    "mlr --icsv put -q 'print > stderr, $a' then put 'dump > stdout' d.csv",
    "mlr --icsv put -f prog.mlr --load lib.mlr data.csv",
    "make -j4",
    "make -E 'DEBUG=1' all",
    "make CFLAGS=-O2 V=1 install",
    "curl -fsSL https://example.com -o out.txt",
    "curl -d 'a=1' -H 'X: y' https://example.com",
    "curl -F 'name=value' https://example.com",
    "curl -b 'session=abc' https://example.com",
    "wget -q -e robots=off https://example.com",
    "git log -n 5",
    "git status",
    "git commit -m 'msg /etc/x'",
    "git push -o ci.skip origin main",
    "git config user.name 'A B'",
    "git config --get user.email",
    "git config alias.co checkout",
    "git archive -o out.tar HEAD",
    "git clone https://example.com/r.git",
    "git worktree add ../proj/wt",
    "git rebase -i HEAD~3",
    "tar -xzf a.tgz",
    "tar -czf out.tgz src",
    "tar xf a.tar",
    "gcc -o build/app main.c",
    "gcc -Wall -O2 -std=c11 -DNDEBUG -Iinclude -c main.c -o main.o",
    "clang -fno-omit-frame-pointer -g -o app main.c",
    "g++ -MMD -MF build/x.d -c x.cc",
    "go build -o bin/app ./cmd/app",
    "go test -run TestX -count=1 ./...",
    "rustc -O main.rs",
    "javac -d out src/Main.java",
    "tsc -p tsconfig.json",
    "watch -n 5 date",
    "watch 'ls -l | wc -l'",
    "busybox ls",
    "taskset -c 1 make",
    "su -c id",
]


@pytest.mark.parametrize("line", QUIET)
def test_everyday_forms_stay_quiet(line: str) -> None:
    assert external(line) == set()
    assert dynamic_roles(line) == set()


# (line, the commands that would run, in order)
COMMANDS = [
    ("watch -n1 'ls | wc -l'", ["watch", "ls", "wc"]),
    ("watch -x ls -l", ["watch", "ls"]),
    ("busybox sh -c 'id'", ["busybox", "sh", "id"]),
    ("sed '1e date' f", ["sed", "date"]),
    ("git config core.pager 'less -R'", ["git", "less"]),
    ("bwrap --ro-bind / / --dev /dev --setenv A B id", ["bwrap", "id"]),
    ("git rebase --exec 'make test' main", ["git", "make"]),
]


@pytest.mark.parametrize(("line", "expected"), COMMANDS)
def test_commands_run_by_others_are_commands(line: str, expected: list[str]) -> None:
    assert commands(line) == expected
