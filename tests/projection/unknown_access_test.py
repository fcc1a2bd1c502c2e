"""What guard does not know is an access: option values and operands no spec declares data,
environment variables, builtins that touch files, git settings, and crashes.

Pure: a fixed context (workspace /w/proj, home /h/u). `/o/…` stands for any path outside.
"""

from __future__ import annotations

import os

import pytest
from projected import CTX, H, dynamic_roles, external, run

from guard.policy.files import load_policy
from guard.projection.line_projection import project
from guard.verdict.decision import decide


def verdict(line: str) -> str:
    return decide(load_policy(None, home=H), run(line), (), home=H).decision


# (line, external (path, access) pairs): the issue's examples, then cases nobody listed
EXTERNAL = [
    # option values a spec names (or takes for a value) without saying they are data
    ("jq -L /o/lib . f.json", {("/o/lib", "read")}),
    ("node -r /o/mod.js app.js", {("/o/mod.js", "read")}),
    ("perl -I /o/lib -MFoo -e 1", {("/o/lib", "read")}),
    ("perl -I/o/lib -e 1", {("/o/lib", "read")}),
    ("ruby -r /o/x.rb app.rb", {("/o/x.rb", "read")}),
    ("python3 -X importtime=/o/x -c 1", {("/o/x", "read")}),
    ("python3 -m mod -c /o/conf", {("/o/conf", "read")}),  # the module's own arguments
    ("python3 -c 'import sys' /o/data", {("/o/data", "read")}),
    ("gcc -aux-info /o/out.h main.c", {("/o/out.h", "write")}),
    ("rustc -C linker=/o/cc main.rs", {("/o/cc", "read")}),
    ("rustc --emit=obj=/o/obj main.rs", {("/o/obj", "read")}),
    ("cargo new /o/proj", {("/o/proj", "read")}),
    ("npm install /o/pkg", {("/o/pkg", "read")}),
    ("flock /o/lock true", {("/o/lock", "write")}),
    ("script -O /o/log", {("/o/log", "write")}),
    ("apt-get -o Dir::Etc=/o/etc update", {("/o/etc", "read")}),
    ("curl --proto-default file /o/secret", {("/o/secret", "read")}),
    ("git archive --exec=/o/x --remote=/o/repo HEAD", {("/o/x", "execute"), ("/o/repo", "read")}),
    ("git submodule add /o/repo sub", {("/o/repo", "read")}),
    # general: an option no spec knows, carrying a path; a value option nobody declared data
    ("grep --some-new-option=/o/x foo f", {("/o/x", "read")}),
    ("sort --temporary-directory=/o/tmp f", {("/o/tmp", "read")}),
    ("rg --max-columns /o/x foo", {("/o/x", "read")}),
    ("make -j /o/dir", {("/o/dir", "read")}),
    ("pytest -p /o/plugin.py", {("/o/plugin.py", "read")}),
    ("timeout /o/x true", {("/o/x", "read")}),
    ("kubectl apply -k /o/kustomize", {("/o/kustomize", "read")}),
    ("systemctl link /o/unit.service", {("/o/unit.service", "read")}),
    ("brew install /o/formula.rb", {("/o/formula.rb", "read")}),
    # environment variables: knowledge in guard/knowledge/environment.py
    ("GIT_INDEX_FILE=/o/idx git status", {("/o/idx", "write")}),
    ("GIT_WORK_TREE=/o git status", {("/o", "write")}),
    ("GIT_OBJECT_DIRECTORY=/o/objects git log", {("/o/objects", "write")}),
    ("GIT_ALTERNATE_OBJECT_DIRECTORIES=/o/a:/o/b git log", {("/o/a", "read"), ("/o/b", "read")}),
    ("GIT_TRACE=/o/trace git status", {("/o/trace", "write")}),
    ("GIT_TRACE2_EVENT=/o/ev git status", {("/o/ev", "write")}),
    ("GIT_TRACE=1 git status", set()),  # a number means standard error
    ("LD_DEBUG_OUTPUT=/o/ld ls", {("/o/ld", "write")}),
    ("OPENSSL_CONF=/o/ssl.cnf openssl version", {("/o/ssl.cnf", "read")}),
    ("TZ=/o/zone date", {("/o/zone", "read")}),
    ("TZ=:/o/zone date", {("/o/zone", "read")}),
    ("TZ=UTC date", set()),
    ("MAKEFILES=/o/evil.mk make", {("/o/evil.mk", "execute")}),
    ("KUBECONFIG=/o/a:/o/b kubectl get pods", {("/o/a", "read"), ("/o/b", "read")}),
    ("CLASSPATH=/o/a.jar java Main", {("/o/a.jar", "execute")}),
    ("PSQLRC=/o/rc psql", {("/o/rc", "execute")}),
    ("DESTDIR=/o/stage make install", {("/o/stage", "write")}),
    ("env GIT_INDEX_FILE=/o/idx git status", {("/o/idx", "write")}),
    ("sudo GIT_INDEX_FILE=/o/idx git status", {("/o/idx", "write")}),
    ("time GIT_INDEX_FILE=/o/idx git status", {("/o/idx", "write")}),
    ("export GIT_INDEX_FILE=/o/idx; git status", {("/o/idx", "write")}),
    ("GIT_INDEX_FILE=/o/idx", set()),  # a shell variable, in no program's environment
    ("GIT_INDEX_FILE=/o/idx; export GIT_INDEX_FILE; git status", {("/o/idx", "write")}),
    ("declare -x GIT_WORK_TREE=/o", {("/o", "write")}),
    # a variable nobody described, whose name says it names files
    ("MYTOOL_CONFIG=/o/conf mytool", {("/o/conf", "read")}),
    ("export APP_LOG_FILE=/o/app.log", {("/o/app.log", "read")}),
    ("DEST=/o/app make", set()),  # a name that says nothing: a make variable
    # builtins and expansions that touch files
    ("bind -f /o/inputrc", {("/o/inputrc", "read")}),
    ("history -r /o/hist", {("/o/hist", "read")}),
    ("history -w /o/hist", {("/o/hist", "write")}),
    ("compgen -f /o/", {("/o", "read")}),
    ("pushd -n /o", {("/o", "chdir")}),
    ("enable -f /o/x.so x", {("/o/x.so", "execute")}),
    ("echo /o/data/*", {("/o/data", "read")}),
    ("printf '%s\\n' /o/data/*.conf", {("/o/data", "read")}),
    ("alias ll='cat /o/secret'\nll", {("/o/secret", "read")}),
    # tools whose default output is under home
    ("ssh-keygen -t ed25519", {(f"{H}/.ssh", "write")}),
    ("gpg --import key.asc", {(f"{H}/.gnupg", "write")}),
    ("ssh-keygen -lf key.pub", set()),
    ("ssh-keygen -f ./key -t ed25519", set()),
    ("gpg --homedir ./g --import key.asc", set()),
    ("aws configure", {(f"{H}/.aws", "write")}),
    ("aws configure set region eu-west-1", {(f"{H}/.aws", "write")}),
    ("aws configure list", set()),
    ("pip config set global.index-url https://o.example/simple",
     {(f"{H}/.config/pip/pip.conf", "write")}),
    ("yarn config set scriptShell /o/sh", {(f"{H}/.yarnrc", "write")}),
    ("./configure --prefix=/usr/local --sysconfdir=/etc", set()),
    ("./configure --srcdir=/o/src CC=/o/bin/cc", {("/o/src", "read"), ("/o/bin/cc", "read")}),
    ("aws configure get aws_secret_access_key", {(f"{H}/.aws", "read")}),
    ("docker login ghcr.io", {(f"{H}/.docker", "write")}),
    ("kubectl config use-context prod", {(f"{H}/.kube", "write")}),
    ("kubectl --kubeconfig=./kc config use-context prod", set()),
    ("npm login", {(f"{H}/.npmrc", "write")}),
    ("gh auth login", {(f"{H}/.config/gh", "write")}),
    ("kubectl get pods", set()),
    ("gh pr list", set()),
    # an @FILE argument list and a file: URL name a local file
    ("mytool @/o/args.txt", {("/o/args.txt", "read")}),
    ("mytool --from=@/o/notes", {("/o/notes", "read")}),
    ("mytool file:///o/x.conf", {("/o/x.conf", "read")}),
    ("mytool file://localhost/o/x.conf", {("/o/x.conf", "read")}),
    ("mytool FILE:/o/x.conf", {("/o/x.conf", "read")}),
    ("mytool file://fileserver/o/x.conf", set()),  # another machine's
    ("npm install @types/node @scope/pkg@1.2", set()),
    # commands that print a secret kept under home read it
    ("gh auth token", {(f"{H}/.config/gh/hosts.yml", "read")}),
    ("gpg --armor --export-secret-keys bob", {(f"{H}/.gnupg", "read")}),
    ("gpg --homedir ./g --export-secret-keys bob", set()),
    ("pass show github/token", {(f"{H}/.password-store", "read")}),
    ("gcloud auth print-access-token", {(f"{H}/.config/gcloud", "read")}),
    ("az account get-access-token", {(f"{H}/.azure", "read")}),
    ("security find-generic-password -s app -w", {(f"{H}/Library/Keychains", "read")}),
    ("secret-tool lookup service app", {(f"{H}/.local/share/keyrings", "read")}),
    ("vault print token", {(f"{H}/.vault-token", "read")}),
    ("git credential fill <<< 'host=github.com'", {(f"{H}/.git-credentials", "read")}),
    ("git credential-store get", {(f"{H}/.git-credentials", "read")}),
    ("ssh-copy-id deploy@prod", {(f"{H}/.ssh", "read")}),
    ("ssh-copy-id -i ./deploy.pub deploy@prod", set()),
    ("cargo login", {(f"{H}/.cargo/credentials.toml", "write")}),
    ("gpg -d secrets.gpg", {(f"{H}/.gnupg", "read")}),  # decrypts with the keys kept there
    ("gpg --decrypt notes.asc", {(f"{H}/.gnupg", "read")}),
    ("sops -d secrets.enc.yaml", {(f"{H}/.config/sops", "read")}),
    ("sops -e secrets.yaml", set()),
    ("kubectl config view --raw", {(f"{H}/.kube", "read")}),  # keys and tokens, not redacted
    ("kubectl config view --minify --flatten", {(f"{H}/.kube", "read")}),
    ("kubectl config view", set()),
    ("aws sts get-session-token", {(f"{H}/.aws", "read")}),
    ("aws sts assume-role --role-arn r --role-session-name s", {(f"{H}/.aws", "read")}),
    ("aws sts get-caller-identity", set()),
    ("heroku auth:token", {(f"{H}/.netrc", "read")}),
    ("bw get password github", {(f"{H}/.config/Bitwarden CLI", "read")}),
    ("lpass show --password github", {(f"{H}/.lpass", "read")}),
    ("lpass export", {(f"{H}/.lpass", "read")}),
    ("bw list items", {(f"{H}/.config/Bitwarden CLI", "read")}),
    ("keyring get service user", {(f"{H}/.local/share/keyrings", "read")}),
    ("doppler secrets download --no-file", {(f"{H}/.doppler", "read")}),
    ("doppler run -- npm start", set()),  # into the program's environment, not shown
    ("infisical export", {(f"{H}/.infisical", "read")}),
    # a desktop's settings, kept under home, written by what changes them
    ("defaults write com.apple.dock autohide -bool true", {(f"{H}/Library/Preferences", "write")}),
    ("defaults read com.apple.dock", set()),
    ("gsettings set org.gnome.desktop.interface gtk-theme x", {(f"{H}/.config/dconf", "write")}),
    ("dconf reset -f /", {(f"{H}/.config/dconf", "write")}),
    ("dconf dump /", set()),  # a key's path, not a file
    ("xdg-settings set default-web-browser x.desktop",
     {(f"{H}/.config/mimeapps.list", "write")}),
    ("xdg-mime query default text/html", set()),
    ("curl -E /o/client.pem https://x.example", {("/o/client.pem", "read")}),
    ("git commit -m credential", set()),  # the word as a message, not the subcommand
    ("gh auth status", set()),
    ("gpg --list-keys", set()),
    ("pass ls", set()),
    ("PYTHONPATH=/o/lib python3 x.py", {("/o/lib", "execute")}),
    # a jq or yq filter is data, not a path; the files after it are read
    ("yq '.key' /o/f.yaml", {("/o/f.yaml", "read")}),
    ("yq e '.key' /o/f.yaml", {("/o/f.yaml", "read")}),
    ("yq eval-all '. as $i' /o/a.yaml", {("/o/a.yaml", "read")}),
    ("yq -i '.a = 1' /o/f.yaml", {("/o/f.yaml", "write")}),
    ("gojq '.key' /o/f.json", {("/o/f.json", "read")}),
    ("jaq '.id' /o/f.json", {("/o/f.json", "read")}),
    ("openssl x509 -in /o/cert.pem -noout -text", {("/o/cert.pem", "read")}),
    ("openssl req -new -keyout /o/k.pem -out x.csr", {("/o/k.pem", "write")}),
    ("openssl passwd -6 secret", set()),
    ("getent passwd root", set()),
    ("NODE_OPTIONS='--max-old-space-size=4096 --redirect-warnings=/o/w.log' node a.js",
     {("/o/w.log", "read")}),
    ("JAVA_TOOL_OPTIONS=-Dlog4j.configurationFile=/o/log4j.xml java -jar a.jar",
     {("/o/log4j.xml", "read")}),
    # programs a build runs, named by the toolchain's variables (cargo's for one target too)
    ("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER=/o/ld cargo build", {("/o/ld", "execute")}),
    ("CARGO_TARGET_AARCH64_APPLE_DARWIN_RUNNER=/o/run cargo test", {("/o/run", "execute")}),
    ("RUSTC_WORKSPACE_WRAPPER=/o/w cargo build", {("/o/w", "execute")}),
    ("RUSTDOC=/o/rustdoc cargo doc", {("/o/rustdoc", "execute")}),
    ("GOROOT=/o/go go build ./...", {("/o/go", "execute")}),
    ("GOBIN=/o/bin go install ./...", {("/o/bin", "write")}),
    # a remote may be a path; the refspecs after it are patterns of refs, not files
    ("git fetch /o/repo main", {("/o/repo", "read")}),
    ("git fetch origin +refs/heads/*:refs/remotes/origin/*", set()),
    ("git push origin 'refs/tags/*:refs/tags/*'", set()),
    ("black --exclude '/(\\.git|\\.venv)/' .", set()),  # a regular expression
    ("black --config /o/pyproject.toml .", {("/o/pyproject.toml", "read")}),
    # test runners' and linters' patterns are regular expressions or globs over the tests;
    # their configs, plugins and outputs are files
    ("npx eslint --ignore-pattern '/dist/' .", set()),
    ("npx eslint --rulesdir /o/rules -o /o/out.txt .",
     {("/o/rules", "read"), ("/o/out.txt", "write")}),
    ("npx jest --testPathIgnorePatterns /node_modules/ /dist/", set()),
    ("npx jest -c /o/jest.config.js", {("/o/jest.config.js", "read")}),
    ("npx mocha --grep '/api/' -r /o/setup.js", {("/o/setup.js", "read")}),
    ("go test -run '/subtest' -count=1 ./...", set()),
    ("go test -ldflags=-extld=/o/ld ./...", {("/o/ld", "read")}),
    ("npx eslint -f /o/formatter.js .", {("/o/formatter.js", "read")}),  # code it loads
    ("npx mocha -R /o/reporter.js", {("/o/reporter.js", "read")}),
    ("npx jest --reporters=/o/reporter.js", {("/o/reporter.js", "read")}),
]


@pytest.mark.parametrize(("line", "expected"), EXTERNAL)
def test_unknown_words_are_accesses(line: str, expected: set[tuple[str, str]]) -> None:
    assert external(line) == expected


# (line, the dynamic roles it must give)
DYNAMIC = [
    # settings that carry options or code
    ("NODE_OPTIONS='--require /o/x.js' node app.js", {"code"}),
    ("PERL5OPT=-Mfoo perl x.pl", {"code"}),
    ("JAVA_TOOL_OPTIONS=-javaagent:/o/a.jar java -jar x.jar", {"code"}),
    ("MAKEFLAGS=-f/o/mk make", {"code"}),
    ("CURL_HOME=/o curl https://example.com", {"code"}),
    ("RUSTFLAGS='-C linker=/o/cc' cargo build", {"code"}),
    ("GIT_CONFIG_GLOBAL=/o/gitconfig git log", {"code"}),
    # variables that carry options, read with the tool's own option table (issue 27)
    ("NODE_OPTIONS='-r ./hook.js' npm test", {"code"}),
    ("NODE_OPTIONS='--max-old-space-size=4096 --import=./reg.mjs' node a.js", {"code"}),
    ("NODE_OPTIONS=--loader=ts-node/esm node a.ts", {"code"}),
    ("NODE_OPTIONS=--experimental-loader=./l.mjs node a.js", {"code"}),
    ("NODE_OPTIONS=--inspect=0.0.0.0:9229 node server.js", {"code"}),
    ("export NODE_OPTIONS='--require ./x.js'", {"code"}),
    ("JAVA_TOOL_OPTIONS='-Xmx2g -agentpath:/o/lib.so' mvn test", {"code"}),
    ("MAVEN_OPTS=-javaagent:./agent.jar mvn verify", {"code"}),
    ("_JAVA_OPTIONS='-XX:OnOutOfMemoryError=rm -rf ~' java -jar a.jar", {"code"}),
    ("GRADLE_OPTS=@/o/args ./gradlew build", {"code"}),
    ("RUSTFLAGS='-Clinker=./cc' cargo build", {"code"}),
    ("RUSTFLAGS='-C link-args=-Wl,-rpath,/o' cargo build", {"code"}),
    ("RUSTFLAGS='--codegen linker=/o/cc' cargo build", {"code"}),
    ("CARGO_ENCODED_RUSTFLAGS=-Clinker=/o/cc cargo build", {"code"}),
    ("GOFLAGS=-toolexec=/o/wrap go build ./...", {"code"}),
    ("GOFLAGS='-mod=vendor -exec=./run' go test ./...", {"code"}),
    ("GOFLAGS=--overlay=/o/overlay.json go build", {"code"}),
    ("MAKEFLAGS='-j4 SHELL=/o/sh' make", {"code"}),
    ("MAKEFLAGS=--eval=x make", {"code"}),
    ("RUBYOPT=-rpry ruby x.rb", {"code"}),
    ("PYTEST_ADDOPTS='-p evil_plugin' pytest", {"code"}),
    ("TAR_OPTIONS=--to-command=sh tar xf a.tar", {"code"}),
    ("NODE_OPTIONS=$OPTS npm test", {"code"}),
    ("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS='-C linker=/o/cc' cargo build", {"code"}),
    # a pager is a command line its tool pipes its output through
    ("bat --pager 'sh -c \"$X\"' README.md", {"code"}),
    ("GH_PAGER=\"$P\" gh pr list", {"code"}),
    # Python's settings that load code: a warning category is imported, a breakpoint hook too
    ("PYTHONWARNINGS=ignore::evil.Warning python3 x.py", {"code"}),
    ("PYTHONBREAKPOINT=evil.hook pytest", {"code"}),
    # the C compiler's options a build passes on (CFLAGS, LDFLAGS, CGO_CFLAGS …)
    ("CFLAGS='-O2 -fplugin=/o/p.so' make", {"code"}),
    ("CGO_CFLAGS=-fplugin=./p.so go build", {"code"}),
    ("LDFLAGS=-fuse-ld=/o/ld make", {"code"}),
    ("CXXFLAGS='-Xclang -load -Xclang /o/x.so' cmake --build b", {"code"}),
    ("export CFLAGS=-B/o/bin; make", {"code"}),
    ("CPPFLAGS=@/o/args ./configure", {"code"}),
    ("export PYTHONPATH=src", {"code"}),  # it stays for the guard of every later line
    # git settings not known to be harmless
    ("git -c commit.template=/o/t commit", {"code"}),
    ("git config blame.ignoreRevsFile /o/revs", {"code"}),
    ("git -c user.signingKey=/o/key commit", {"code"}),
    ("git -c tar.tgz.command=evil archive HEAD", {"code"}),
    ("git -c core.gitProxy=evil fetch", {"code"}),
    ("git -c man.x.cmd=evil help log", {"code"}),
    ("git -c core.worktree=/o status", {"code"}),
    ("git -c remote.origin.url=/o/repo fetch", {"code"}),
    ("git -c some.new.key=1 status", {"code"}),
    ("cargo --config 'build.rustc-wrapper=\"x\"' build", {"code"}),
    ("hg --config hooks.pre-commit=id commit", {"code"}),
    # archives that write the names they hold
    ("tar -xPf a.tar", {"path"}),
    ("cpio -id < a.cpio", {"path"}),
    ("git apply --unsafe-paths p.diff", {"path"}),
    # awk naming its own input, a source looked up on an unknown PATH
    ("awk 'BEGIN { ARGV[1] = \"/o/x\"; ARGC = 2 } { print }'", {"path"}),
    ("PATH=$UNKNOWN_DIR; source mylib", {"code"}),
]


@pytest.mark.parametrize(("line", "roles"), DYNAMIC)
def test_unknown_settings_ask(line: str, roles: set[str]) -> None:
    assert roles <= dynamic_roles(line)


# ordinary lines: no prompt
QUIET = [
    'git commit -m "fix /etc/hosts parsing"',
    'git commit -m "/etc/hosts is broken"',
    "git log --grep=/api/ --format='%h %s'",
    "echo /etc/passwd",
    "grep -r foo src/",
    'grep -rn "/api/v1" src/',
    "rg -g '!/target' foo",
    "sed 's/a/b/' input.txt",
    "sed -e 's#/usr/local#/opt#' input.txt",
    "printf '%s/%s\\n' a b",
    "awk -F/ '{print $2}' input.txt",
    "sort -t/ -k2 input.txt",
    "cut -d/ -f2 input.txt",
    "gcc -DCONFIG=/etc/app.conf -o main main.c",
    "python3 -m pytest tests/",
    "python3 -c 'print(1)'",
    "npm install lodash",
    "npm install @scope/pkg",
    "cargo run -- --help",
    "timeout 10 make test",
    "git diff HEAD~1 -- src/",
    "git checkout -b feature/x",
    "jq --arg x /etc/y '.a' input.txt",
    "date +%Y/%m/%d",
    "CFLAGS=-O2 make",
    "DEBUG=1 npm test",
    "LANG=C sort input.txt",
    "RUST_LOG=debug cargo run",
    "PYTHONDONTWRITEBYTECODE=1 pytest",
    "yq '.key' config.yaml",
    "yq '.env' config.yaml",
    "yq e '.spec.template' deploy.yaml",
    "jq '.key' package.json",
    "gojq '.token' data.json",
    "NODE_OPTIONS=--max-old-space-size=4096 npm run build",
    "NODE_OPTIONS='--max-old-space-size=8192 --enable-source-maps' npm test",
    "NODE_OPTIONS=--openssl-legacy-provider npm start",
    "export NODE_OPTIONS=--max-old-space-size=4096",
    "RUSTFLAGS='-C opt-level=3' cargo build",
    "CFLAGS='-O2 -g -Wall -I./include' make",
    "LDFLAGS='-L/usr/local/lib -fuse-ld=lld' make",
    "CXXFLAGS='-std=c++17 -march=native' make -j8",
    "CGO_ENABLED=0 CGO_LDFLAGS=-static go build ./...",
    "CPPFLAGS=-DNDEBUG ./configure",
    "RUSTFLAGS='-C target-cpu=native -D warnings' cargo build",
    "RUSTFLAGS=-Copt-level=2 cargo test",
    "RUSTDOCFLAGS='--cfg docsrs' cargo doc",
    "JAVA_TOOL_OPTIONS=-Xmx2g mvn test",
    "JAVA_OPTS='-Xms512m -Xmx1g -Dspring.profiles.active=dev' ./gradlew bootRun",
    "MAVEN_OPTS='-Xmx1g -XX:+UseG1GC' mvn package",
    "GOFLAGS=-mod=vendor go build ./...",
    "bat --pager 'less -RF' README.md",
    "GH_PAGER=cat gh pr list",
    "AWS_PAGER='' aws s3 ls",
    "GOFLAGS='-mod=mod -trimpath' go test ./...",
    "MAKEFLAGS=-j8 make",
    "MAKEFLAGS='-j4 --no-print-directory' make all",
    "PYTEST_ADDOPTS='-x -q --tb=short' pytest",
    "PERL5OPT=-w perl x.pl",
    "GZIP=-9 tar czf a.tgz src",
    "PYTHONPATH=src python3 -m pytest",
    "PYTHONWARNINGS=ignore python3 x.py",
    "PYTHONWARNINGS=ignore::DeprecationWarning,default::ResourceWarning pytest",
    "export PYTHONWARNINGS=ignore",
    "PYTHONBREAKPOINT=0 pytest",
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS='-C target-cpu=native' cargo build",
    "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64 cargo test",
    "PYTHONPATH=.:src pytest -q",
    "env PYTHONPATH=src python3 main.py",
    "git diff --name-only HEAD~1 | xargs wc -l",
    "GIT_AUTHOR_NAME='A B' git commit -m x",
    "x=/etc; echo $x",
    'git config user.name "A B"',
    "git config --get remote.origin.url",
    "git -c color.ui=always log",
    "git -c core.pager=cat log",
    "git -c pull.rebase=true pull",
    "ssh-keygen -lf key.pub",
    "gpg --verify x.sig x",
    "echo *.py",
    "alias ll='ls -la'",
    "history",
]


@pytest.mark.parametrize("line", QUIET)
def test_ordinary_lines_stay_quiet(line: str) -> None:
    assert verdict(line) == "allow"


def test_a_path_guard_may_not_follow_is_a_request_not_a_traceback(tmp_path: object) -> None:
    def refuse(path: str) -> str:
        raise PermissionError(13, "Permission denied", path)

    ctx = CTX._replace(resolve=refuse)
    requests = run("cat /proc/1/root/etc/passwd", ctx).requests
    reasons = [r.reason for r in requests if r.surface == "dynamic"]
    assert any("cannot follow the links" in r and "Permission denied" in r for r in reasons)
    assert ("/proc/1/root/etc/passwd", "read") in {
        (r.path, r.access) for r in requests if r.surface == "external_directory"
    }


def test_a_deleted_directory_is_judged_where_the_shell_says_it_is(tmp_path: object) -> None:
    from guard.verdict.workspace import build_context

    gone = os.path.join(str(tmp_path), "gone")
    os.mkdir(gone)
    here = os.getcwd()
    os.chdir(gone)
    try:
        os.rmdir(gone)
        ctx = build_context(None, {"PWD": gone, "HOME": H})
    finally:
        os.chdir(here)
    assert ctx.cwd == gone


def test_a_bare_name_that_exists_is_a_path(tmp_path: object) -> None:
    from guard.verdict.workspace import build_context

    root = str(tmp_path)
    ws, outside = os.path.join(root, "ws"), os.path.join(root, "outside")
    os.mkdir(ws)
    os.mkdir(outside)
    os.symlink(outside, os.path.join(ws, "data"))
    ctx = build_context(ws, {"HOME": H, "PATH": "/usr/bin"}, workspace=(ws,))
    reads = {
        (r.path, r.access)
        for line in ("mytool data", "mytool --verbose data", "mytool nothing-here")
        for r in project(line, ctx).requests
        if r.surface == "external_directory"
    }
    assert reads == {(outside, "read")}


def test_a_variable_nobody_described_is_a_read_of_what_exists(tmp_path: object) -> None:
    """`XYZ=/etc/shadow cmd`: a program may open what its environment names. A value naming
    nothing that exists (`DEST=/opt/app make`, a make variable) stays quiet, unless the
    variable's name says it names files."""
    from pathlib import Path

    from guard.verdict.workspace import build_context

    base = Path(str(tmp_path))
    (base / "ws").mkdir()
    (base / "secret").write_text("s")
    ctx = build_context(str(base / "ws"), {"HOME": H}, workspace=(str(base / "ws"),))
    read = {(r.path, r.access) for r in project(f"XYZ={base}/secret ./run", ctx).requests}
    assert (str(base / "secret"), "read") in read
    quiet = project(f"DEST={base}/not-there make", ctx).requests
    assert not [r for r in quiet if r.surface == "external_directory"]
    named = project(f"APP_CONFIG={base}/not-there ./run", ctx).requests
    assert [r for r in named if r.surface == "external_directory"]


@pytest.mark.parametrize(
    ("module", "asks"),
    [
        ("sitecustomize.py", True),
        ("usercustomize.py", True),
        ("json.py", True),  # the standard library's, which guard imports
        ("tree_sitter/__init__.py", True),
        ("guard/__init__.py", True),
        ("myapp/__init__.py", False),
        ("helpers.py", False),
    ],
)
def test_a_pythonpath_in_the_workspace_asks_only_when_it_shadows_what_guard_loads(
    tmp_path: object, module: str, asks: bool
) -> None:
    from pathlib import Path

    from guard.verdict.workspace import build_context

    ws = Path(str(tmp_path)) / "proj"
    (ws / "src" / module).parent.mkdir(parents=True, exist_ok=True)
    (ws / "src" / module).write_text("")
    ctx = build_context(str(ws), {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    roles = {r.role for r in project("PYTHONPATH=src python3 -m pytest", ctx).requests}
    assert ("code" in roles) == asks
