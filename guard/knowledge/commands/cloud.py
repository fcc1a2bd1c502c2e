"""Cloud and infrastructure: providers' CLIs, infrastructure as code, cluster tools, one
`Command` record each (guard/knowledge/commands/command.py).

A CLI with subcommands is read by the verb model (guard/knowledge/verbs.py): `pulumi destroy`,
`doctl compute droplet delete` ask without a row of their own; effect rows say what the model
cannot (`terraform apply -auto-approve`, `aws s3 sync --delete`, options that take a value).
"""

from __future__ import annotations

from guard.knowledge.commands.command import Command, HomeFile, arity, home_files
from guard.knowledge.commands.effect import E, Tool
from guard.knowledge.commands.spec import opts

_CLI = Command(subcommands=True)  # what it destroys is what the verb model reads

_BQ = Command(  # bq query SQL: the SQL is read as every SQL client's; bq rm: the verb model
    effects=Tool(
        values=opts(
            *("--project_id", "--location", "--format", "-n", "--max_rows", "--parameter"),
            *("--destination_table", "--dataset_id", "--job_id", "--label"),
        ),
        effects=(
            E("destroy", "database", "SQL that drops or empties data", sub=("query",), check="sql"),
        ),
    ),
    subcommands=True,
)

_TERRAFORM = Command(
    effects=Tool(
        values=opts("-var", "-var-file", "-target", "-chdir", "-out", "-lock-timeout"),
        single_dash_long=True,
        effects=(
            E(
                "destroy",
                "terraform",
                "terraform destroy removes the infrastructure it manages",
                sub=("destroy",),
            ),
            E(
                "destroy",
                "terraform",
                "apply -destroy removes the infrastructure it manages",
                sub=("apply",),
                flags=("-destroy", "--destroy"),
            ),
            E(
                "destroy",
                "terraform",
                "apply -auto-approve changes infrastructure unreviewed",
                sub=("apply",),
                flags=("-auto-approve", "--auto-approve"),
            ),
            E(  # terraform plan -destroy -out=x && terraform apply x: nobody asked between
                "destroy",
                "terraform",
                "apply of a saved plan changes infrastructure without asking (it may destroy)",
                sub=("apply", "*"),
            ),
            E(
                "destroy",
                "terraform",
                "removes resources from the state",
                sub=("state", "rm"),
            ),
            E("destroy", "terraform", "deletes a workspace", sub=("workspace", "delete")),
        ),
    ),
    subcommands=True,
)

_PULUMI = Command(
    dry_run=opts("--preview-only"),
    effects=Tool(
        values=opts("-s", "--stack", "-C", "--cwd", "-t", "--target", "-m", "--message"),
        effects=(
            E("destroy", "pulumi", "destroy removes the stack's resources", sub=("destroy|down",)),
            E(
                "destroy",
                "pulumi",
                "up without a preview changes infrastructure unreviewed",
                sub=("up|update",),
                flags=("--yes", "-y", "--skip-preview", "-f"),
            ),
        ),
    ),
    subcommands=True,
)


def _deploys(tool: str, *subs: tuple[str, ...], flags: tuple[str, ...] = ()) -> Command:
    """A CLI whose `subs` put the app, site or function where others reach it."""
    return Command(
        effects=Tool(
            effects=tuple(
                E("publish", tool, "deploys where others reach it", sub=sub, flags=flags)
                for sub in subs
            )
        ),
        subcommands=True,
    )


COMMANDS: dict[str, Command] = {
    "pulumi": _PULUMI,
    # deploying publishes: the app, site or function leaves the machine for others
    **dict.fromkeys(("fly", "flyctl"), _deploys("fly", ("deploy",))),
    "vercel": _deploys("vercel", ("deploy|promote|redeploy",)),
    "netlify": _deploys("netlify", ("deploy",)),
    "firebase": _deploys("firebase", ("deploy",), ("hosting:channel:deploy",)),
    "wrangler": _deploys("cloudflare", ("deploy|publish",), ("pages", "deploy|publish")),
    "railway": _deploys("railway", ("up|redeploy",)),
    **dict.fromkeys(("serverless", "sls"), _deploys("serverless", ("deploy",))),
    "cdk": _deploys("aws", ("deploy",)),
    "sam": _deploys("aws", ("deploy",)),
    "eb": _deploys("aws", ("deploy",)),
    "amplify": _deploys("aws", ("publish|push",)),
    "aws": Command(
        home=(  # `aws configure` alone asks for keys and saves them; `list` only reads
            *home_files(
                ".aws",
                "write",
                ("configure", ""),
                ("configure", "set"),
                ("configure", "import"),
                ("configure", "sso"),
                ("sso", "login"),
            ),
            *home_files(".aws", "read", ("configure", "get"), ("configure", "export-credentials")),
            # what prints credentials made with the keys kept there (not `ecr get-login-password`,
            # piped into `docker login --password-stdin` in every deploy script: nothing shown)
            *home_files(
                ".aws",
                "read",
                ("sts", "get-session-token"),
                ("sts", "assume-role"),
                ("sts", "get-federation-token"),
            ),
        ),
        dry_run=opts("--dry-run", "--dryrun"),
        effects=Tool(
            values=opts(
                "--region",
                "--profile",
                "--output",
                "--endpoint-url",
                "--query",
                "--exclude",
                "--include",
            ),
            effects=(
                E("destroy", "aws", "deletes objects from S3", sub=("s3", "rm|rb")),
                E(
                    "destroy",
                    "aws",
                    "sync --delete removes objects from the destination",
                    sub=("s3", "sync"),
                    flags=("--delete",),
                ),
                E(
                    "destroy",
                    "aws",
                    "deletes cloud resources",
                    sub=("*", "delete-*|terminate-*|remove-*|deregister-*|purge-*"),
                ),
                E(
                    "remote",
                    "aws",
                    "runs commands on cloud machines",
                    sub=("ssm", "send-command|start-session|start-automation-execution"),
                ),
                E("remote", "aws", "runs a command in a container", sub=("ecs", "execute-command")),
                E(
                    "disclose",
                    "aws",
                    "prints the value of a secret",
                    sub=("secretsmanager", "get-secret-value|batch-get-secret-value"),
                ),
                E(
                    "disclose",
                    "aws",
                    "prints parameters decrypted",
                    sub=("ssm", "get-parameter|get-parameters|get-parameters-by-path"),
                    flags=("--with-decryption",),
                ),
            ),
        ),
        subcommands=True,
        arity=arity(3),
        help_last="aws prints the help of the command before its `help`",
    ),
    "gcloud": Command(
        home=(
            *home_files(".config/gcloud", "write", ("auth", "login"), ("config", "set")),
            *home_files(
                ".config/gcloud",
                "read",
                ("auth", "print-access-token"),
                ("auth", "print-identity-token"),
                ("auth", "application-default", "print-access-token"),
            ),
        ),
        home_elsewhere=frozenset({"--configuration"}),
        effects=Tool(
            values=opts("--project", "--zone", "--region", "--format", "--account"),
            effects=(
                E(
                    "destroy",
                    "gcloud",
                    "deletes cloud resources",
                    word="delete|delete-*|remove|remove-*|purge|rm",
                ),
                E("remote", "gcloud", "runs commands on a cloud machine", word="ssh"),
                E("publish", "gcloud", "deploys where others reach it", sub=("*", "deploy")),
                E(
                    "publish",
                    "gcloud",
                    "deploys where others reach it",
                    sub=("alpha|beta", "*", "deploy"),
                ),
                E(
                    "publish",
                    "gcloud",
                    "uploads the source and builds it in the cloud",
                    sub=("builds", "submit"),
                ),
                E(
                    "disclose",
                    "gcloud",
                    "prints the value of a secret",
                    sub=("secrets", "versions", "access"),
                ),
            ),
        ),
        subcommands=True,
        arity=arity(3),
    ),
    "gsutil": Command(
        effects=Tool(
            values=opts("-o", "-h", "-u"),
            effects=(
                E("destroy", "gcloud", "deletes objects from cloud storage", sub=("rm|rb",)),
                E(
                    "destroy",
                    "gcloud",
                    "rsync -d removes objects from the destination",
                    sub=("rsync",),
                    flags=("-d",),
                ),
            ),
        ),
        subcommands=True,
    ),
    "az": Command(
        home=(
            HomeFile(".azure", "write", ("login",)),
            HomeFile(".azure", "read", ("account", "get-access-token")),
        ),
        effects=Tool(
            values=opts(
                "-g",
                "--resource-group",
                "-n",
                "--name",
                "--subscription",
                "-o",
                "--output",
                "--query",
            ),
            effects=(
                E("destroy", "azure", "deletes cloud resources", word="delete|purge|delete-*"),
                E(
                    "remote",
                    "azure",
                    "runs a script on virtual machines",
                    sub=("vm|vmss", "run-command"),
                    word="invoke|create",
                ),
                E("remote", "azure", "runs commands on a cloud machine", word="ssh"),
                E(
                    "publish",
                    "azure",
                    "deploys where others reach it",
                    sub=("webapp|containerapp|staticwebapp|functionapp|spring", "up|deploy"),
                ),
                E(
                    "publish",
                    "azure",
                    "uploads the source and builds it in the cloud",
                    sub=("acr", "build"),
                ),
                E(
                    "disclose",
                    "azure",
                    "prints the value of a secret",
                    sub=("keyvault", "secret", "show|download"),
                ),
            ),
        ),
        subcommands=True,
        arity=arity(3),
    ),
    "helm": Command(
        dry_run=opts("--dry-run"),
        effects=Tool(
            values=opts("-n", "--namespace", "--kube-context", "--kubeconfig"),
            effects=(
                E(
                    "destroy",
                    "helm",
                    "uninstalls a release and what it deployed",
                    sub=("uninstall|delete|del|un",),
                ),
            ),
        ),
        subcommands=True,
        arity=arity(2),
    ),
    "terraform": _TERRAFORM._replace(arity=arity(2)),
    "tofu": _TERRAFORM._replace(arity=arity(2)),
    "terragrunt": _TERRAFORM,
    "vault": Command(
        home=(HomeFile(".vault-token", "read", ("print", "token")),),
        effects=Tool(
            values=opts("-address", "-namespace", "-mount", "-versions", "-format"),
            single_dash_long=True,
            effects=(
                E("destroy", "vault", "deletes secrets", sub=("delete",)),
                E(
                    "destroy",
                    "vault",
                    "deletes or destroys secrets",
                    sub=("kv", "delete|destroy|metadata"),
                ),
                E(
                    "destroy",
                    "vault",
                    "disables a secrets engine and its data",
                    sub=("secrets", "disable"),
                ),
                E("disclose", "vault", "prints secrets", sub=("read",)),
                E("disclose", "vault", "prints secrets", sub=("kv", "get")),
            ),
        ),
        subcommands=True,
    ),
    **dict.fromkeys(
        (
            "eksctl",
            "doctl",
            "hcloud",
            "linode-cli",
            "supabase",
            "argocd",
            "flux",
            "istioctl",
            "stripe",
            "openstack",
            "oci",
            "ibmcloud",
            "cf",
            "mc",
            "s3cmd",
            "b2",
            "gcloud-beta",
            "nomad",
            "consul",
            "packer",
            "tailscale",
            "kind",
            "minikube",
            "k3d",
            "kubeadm",
        ),
        _CLI,
    ),
    "bq": _BQ,
    "heroku": _CLI._replace(
        home=home_files(".netrc", "read", ("auth:token",), ("auth", "token")),
        effects=Tool(
            values=opts("-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env"),
            effects=(
                E(
                    "remote",
                    "heroku",
                    "runs a command in the app's cloud machines",
                    sub=("run|run:detached|run:inside|ps:exec",),
                ),
                E(
                    "disclose",
                    "heroku",
                    "prints the app's config vars, its secrets among them",
                    sub=("config|config:get",),
                ),
            ),
        ),
    ),
    # salt runs its functions (cmd.run: any shell command) on every minion it targets
    "salt": Command(
        effects=Tool(effects=(E("remote", "salt", "runs functions on the machines it targets"),))
    ),
    "salt-ssh": Command(
        effects=Tool(effects=(E("remote", "salt", "runs functions on the machines it targets"),))
    ),
}
