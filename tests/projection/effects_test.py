"""Effects: what a line destroys, discards, publishes, runs elsewhere or escalates, read from its
parsed argv (options in any order and spelling, `--`, wrappers), never from its text.

Pure: a fixed context (workspace /w/proj, home /h/u), tables of lines and the `kind:target`
effects they must give, and the shipped policy's verdict on them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from guard.policy.files import load_policy
from guard.policy.rules import Policy
from guard.projection.line_projection import project
from guard.projection.shell_state import Context
from guard.verdict.decision import decide

W = "/w/proj"
H = "/h/u"
CTX = Context(cwd=W, env={"HOME": H, "PATH": "/usr/bin:/bin"}, workspace=(W,), home=H)


def effects(line: str) -> set[str]:
    return {
        f"{r.kind}:{r.target}" for r in project(line, CTX).requests if r.surface == "effect"
    }


@pytest.fixture(scope="module")
def shipped() -> Policy:
    return load_policy(None, home=H, user_file="/nonexistent/policy.toml")


def verdict(policy: Policy, line: str) -> str:
    return decide(policy, project(line, CTX), (), home=H).decision


DESTROY = [
    ("rm -rf build", "destroy:files"),
    ("rm -r build", "destroy:files"),
    ("rm -fR build", "destroy:files"),
    ("rm build -rf", "destroy:files"),
    ("rm --recursive build", "destroy:files"),
    ("rm --rec build", "destroy:files"),
    ("/bin/rm -vrf /srv/old", "destroy:files"),
    ("find . -name '*.tmp' -delete", "destroy:files"),
    ("find /w/proj/build -type f -exec rm {} +", "destroy:files"),
    ("find . -execdir /bin/rm -f {} \\;", "destroy:files"),
    ("rsync -a --delete src/ dest/", "destroy:files"),
    ("rclone purge remote:old", "destroy:rclone"),
    ("rclone --config ./rc.conf delete remote:logs --min-age 30d", "destroy:rclone"),
    ("rclone sync ./site remote:www", "destroy:rclone"),
    ("rclone moveto a.txt remote:b.txt", "destroy:rclone"),
    ("rsync -a --delete-after src/ dest/", "destroy:files"),
    ("rsync -av --del src/ dest/", "destroy:files"),
    ("shred -u secret.txt", "destroy:files"),
    ("truncate -s 0 app.log", "destroy:files"),
    ("dd if=/dev/zero of=/dev/loop0 bs=1M", "destroy:device"),
    ("dd if=img of=disk.img", "destroy:files"),
    ("mkfs.ext4 /dev/loop0p1", "destroy:device"),
    ("/sbin/mkfs -t vfat /dev/loop1", "destroy:device"),
    ("chmod -R 755 .", "destroy:file-modes"),
    ("chmod -vR g+w dir", "destroy:file-modes"),
    ("chown me:me . -R", "destroy:file-owners"),
    ("chown --recursive me .", "destroy:file-owners"),
    ("docker rm -f web", "destroy:containers"),
    ("docker container rm --force web", "destroy:containers"),
    ("podman rm -f web", "destroy:containers"),
    ("docker rmi -f img", "destroy:images"),
    ("docker system prune -af", "destroy:volumes"),
    ("docker image prune -a", "destroy:containers"),
    ("docker volume rm data", "destroy:volumes"),
    ("docker compose down -v", "destroy:volumes"),
    ("aws s3 rm s3://bucket/key --recursive", "destroy:aws"),
    ("aws s3 rb s3://bucket --force", "destroy:aws"),
    ("aws --region eu-west-1 ec2 terminate-instances --instance-ids i-1", "destroy:aws"),
    ("aws dynamodb delete-table --table-name t", "destroy:aws"),
    ("aws s3 sync . s3://b --delete", "destroy:aws"),
    ("gcloud compute instances delete vm1 --zone z", "destroy:gcloud"),
    ("gcloud projects delete my-project", "destroy:gcloud"),
    ("gsutil rm -r gs://bucket", "destroy:gcloud"),
    ("az group delete -n rg --yes", "destroy:azure"),
    ("kubectl delete ns x", "destroy:kubernetes"),
    ("kubectl -n prod delete pod web-1", "destroy:kubernetes"),
    ("helm uninstall web", "destroy:helm"),
    ("terraform destroy", "destroy:terraform"),
    ("terraform apply -auto-approve", "destroy:terraform"),
    ("terraform -chdir=infra apply -destroy", "destroy:terraform"),
    ("tofu destroy -target=x", "destroy:terraform"),
    ("gh repo delete me/repo --yes", "destroy:github"),
    ("vault kv delete secret/app", "destroy:vault"),
    ("vault kv destroy -versions=1 secret/app", "destroy:vault"),
    ("vault kv metadata delete secret/app", "destroy:vault"),
    ("vault delete secret/app", "destroy:vault"),
    ("curl -X DELETE https://api.example.com/v1/items/1", "destroy:http"),
    ("curl -XDELETE https://api.example.com/v1/items/1", "destroy:http"),
    ("curl --request=delete https://api.example.com/x", "destroy:http"),
    ("psql -c 'DROP TABLE users'", "destroy:database"),
    # every SQL client reads its SQL the same way (its record says where the SQL is)
    ("duckdb db.duckdb -c 'DROP TABLE users'", "destroy:database"),
    ("duckdb db.duckdb 'DELETE FROM t'", "destroy:database"),
    ("clickhouse-client -q 'DROP TABLE t'", "destroy:database"),
    ("clickhouse-client --query='TRUNCATE TABLE t'", "destroy:database"),
    ("cqlsh -e 'DROP KEYSPACE prod'", "destroy:database"),
    ("sqlcmd -S db -Q 'DROP DATABASE x'", "destroy:database"),
    ("snowsql -q 'DROP DATABASE x'", "destroy:database"),
    ("bq query --use_legacy_sql=false 'DELETE FROM d.t'", "destroy:database"),
    ("bq query 'TRUNCATE TABLE d.t'", "destroy:database"),
    ("influx -execute 'DROP DATABASE x'", "destroy:database"),
    ("psql -h db --command='truncate events'", "destroy:database"),
    ('mysql -u root -e "DELETE FROM orders"', "destroy:database"),
    ('sqlite3 app.db "drop table t;"', "destroy:database"),
    ("sqlite3 app.db <<'EOF'\nselect 1;\nDELETE FROM t;\nEOF", "destroy:database"),
    ("psql mydb <<EOF\nDROP DATABASE old;\nEOF", "destroy:database"),
    ("npm unpublish pkg@1.0.0", "destroy:npm"),
    ("redis-cli -n 2 FLUSHDB", "destroy:database"),
    ("mongosh app --eval 'db.dropDatabase()'", "destroy:database"),
    ("mongosh --eval 'db.users.deleteMany({})'", "destroy:database"),
    ("kubectl replace --force -f pod.yaml", "destroy:kubernetes"),
    ("kubectl apply --prune -l app=web -f k8s/", "destroy:kubernetes"),
    ("gcloud storage rm -r gs://bucket", "destroy:gcloud"),
    ("terraform workspace delete staging", "destroy:terraform"),
    ("docker-compose down -v", "destroy:volumes"),
    ("crontab -r", "destroy:crontab"),
    ("blkdiscard /dev/loop2", "destroy:device"),
    ("sgdisk --zap-all /dev/loop3", "destroy:device"),
    ("parted /dev/loop3 rm 1", "destroy:device"),
    ("dd if=img of=$DEV", "destroy:device"),
]

DISCARD = [
    # plumbing that overwrites or drops what porcelain would ask about
    ("git checkout-index -f -a", "discard:git-worktree"),
    ("git checkout-index --force --all", "discard:git-worktree"),
    ("git read-tree -u --reset HEAD", "discard:git-worktree"),
    ("git read-tree --reset -u HEAD~1", "discard:git-worktree"),
    ("git prune", "discard:git-history"),
    ("git prune --expire=now", "discard:git-history"),
    ("git submodule deinit -f --all", "discard:git-worktree"),
    ("git submodule deinit --force lib/x", "discard:git-worktree"),
    ("git update-ref -d refs/heads/topic", "discard:git-branch"),
    ("git tag -d v1.0", "discard:git-tag"),
    ("git tag --delete v1.0 v1.1", "discard:git-tag"),
    ("git tag -f v1.0 HEAD", "discard:git-tag"),
    ("git symbolic-ref -d HEAD", "discard:git-branch"),
    ("git checkout -- .", "discard:git-worktree"),
    ("git checkout HEAD~1 -- src/a.py", "discard:git-worktree"),
    ("git checkout .", "discard:git-worktree"),
    ("git checkout -f main", "discard:git-worktree"),
    ("git checkout --force main", "discard:git-worktree"),
    ("git restore src/a.py", "discard:git-worktree"),
    ("git restore .", "discard:git-worktree"),
    ("git restore --staged --worktree f", "discard:git-worktree"),
    ("git restore -SW f", "discard:git-worktree"),
    ("git restore --source=HEAD~2 f", "discard:git-worktree"),
    ("git reset --hard", "discard:git-worktree"),
    ("git reset HEAD~3 --hard", "discard:git-worktree"),
    ("git reset --ha", "discard:git-worktree"),
    ("git reset --merge ORIG_HEAD", "discard:git-worktree"),
    ("git reset --keep HEAD~1", "discard:git-worktree"),
    ("git -C ../other reset --hard", "discard:git-worktree"),
    ("/usr/local/bin/git reset --hard", "discard:git-worktree"),
    ("git clean -f", "discard:git-worktree"),
    ("git clean -fdx", "discard:git-worktree"),
    ("git clean -d --force", "discard:git-worktree"),
    ("git switch -f main", "discard:git-worktree"),
    ("git switch --discard-changes main", "discard:git-worktree"),
    ("git stash drop", "discard:git-stash"),
    ("git stash drop stash@{1}", "discard:git-stash"),
    ("git stash clear", "discard:git-stash"),
    ("git branch -D feature", "discard:git-branch"),
    ("git branch --delete --force feature", "discard:git-branch"),
    ("git branch -d -f feature", "discard:git-branch"),
    ("git branch -f main HEAD~3", "discard:git-branch"),
    ("git push --force", "discard:git-remote publish:git-remote"),
    ("git push -f origin main", "discard:git-remote publish:git-remote"),
    ("git push -uf origin main", "discard:git-remote publish:git-remote"),
    ("git push origin main --force", "discard:git-remote publish:git-remote"),
    ("git push --force-with-lease", "discard:git-remote publish:git-remote"),
    ("git push --force-with-lease=main:abc origin", "discard:git-remote publish:git-remote"),
    ("git push origin +main", "discard:git-remote publish:git-remote"),
    ("git push origin :old-branch", "discard:git-remote publish:git-remote"),
    ("git push --delete origin old", "discard:git-remote publish:git-remote"),
    ("git push --mirror backup", "discard:git-remote publish:git-remote"),
    ("git -C ../other push --for", "discard:git-remote publish:git-remote"),
    ("git worktree remove --force ../wt", "discard:git-worktree"),
    ("git reflog expire --expire=now --all", "discard:git-history"),
    ("git gc --prune=now", "discard:git-history"),
    ("git filter-branch --tree-filter 'rm -f secrets' HEAD", "discard:git-history"),
]

PUBLISH = [
    ("git push", "publish:git-remote"),
    ("git push -u origin feature/x", "publish:git-remote"),
    ("npm publish", "publish:npm"),
    ("npm publish --access public", "publish:npm"),
    ("pnpm publish -r", "publish:npm"),
    ("yarn publish", "publish:npm"),
    ("yarn npm publish", "publish:npm"),
    ("cargo publish", "publish:crates-io"),
    ("twine upload dist/*", "publish:pypi"),
    ("python3 -m twine upload dist/*", "publish:pypi"),
    ("poetry publish --build", "publish:pypi"),
    ("uv publish", "publish:pypi"),
    ("gem push pkg-1.0.gem", "publish:rubygems"),
    ("docker push registry.example.com/app:1", "publish:container-registry"),
    ("podman push app", "publish:container-registry"),
    ("docker buildx build --platform linux/amd64 -t r/app:1 --push .",
     "publish:container-registry"),
    ("mvn clean deploy", "publish:maven"),
    ("mvn -B release:perform", "publish:maven"),
    ("./gradlew publish", "publish:maven"),
    ("gradle build publishToMavenCentral", "publish:maven"),
    ("gh release create v1.0 dist/*.tar.gz", "publish:github-release"),
]

REMOTE = [
    ("ssh prod", "remote:ssh/prod"),
    ("ssh -p 2222 deploy@prod uptime", "remote:ssh/prod"),
    ("ssh prod 'rm -rf /var/www/old'", "remote:ssh/prod destroy:files@prod"),
    ("ssh -t prod sudo systemctl restart web",
     "remote:ssh/prod privilege:root@prod system:services@prod"),
    ("ssh prod git -C /srv/app reset --hard", "remote:ssh/prod discard:git-worktree@prod"),
    ("ssh prod <<'EOF'\ngit stash clear\nEOF", "remote:ssh/prod discard:git-stash@prod"),
    ("kubectl exec -it web-1 -- sh", "remote:kubernetes/web-1"),
    ("kubectl -n prod exec web-1 -- ls -l", "remote:kubernetes/web-1"),
    ("kubectl exec db-0 -- psql -c 'DROP TABLE t'",
     "remote:kubernetes/db-0 destroy:database@kubernetes/db-0"),
    ("docker exec -it web bash", "remote:container/web"),
    ("docker exec -u root -w /srv web rm -rf /data",
     "remote:container/web destroy:files@container/web"),
    ("docker container exec web ls", "remote:container/web"),
    ("podman exec web ls", "remote:container/web"),
    ("gcloud compute ssh vm1 --command 'ls'", "remote:gcloud"),
    ("ansible all -i hosts -m shell -a 'uptime'", "remote:ansible"),
    ("ansible-playbook -i prod site.yml", "remote:ansible"),
    # commands run on other machines, containers and pods by the tools that manage them
    ("kubectl run tmp --image=alpine --rm -it -- sh", "remote:kubernetes/tmp"),
    ("kubectl run tmp --image=alpine -- rm -rf /data",
     "remote:kubernetes/tmp destroy:files@kubernetes/tmp"),
    ("salt '*' cmd.run 'uptime'", "remote:salt"),
    ("salt-ssh web1 state.apply", "remote:salt"),
    ("vagrant ssh -c 'make test'", "remote:vagrant"),
    ("aws ssm send-command --document-name AWS-RunShellScript --targets Key=x,Values=y",
     "remote:aws"),
    ("aws ecs execute-command --cluster c --task t --interactive --command sh", "remote:aws"),
    ("az vm run-command invoke -g g -n vm1 --command-id RunShellScript --scripts uptime",
     "remote:azure"),
    ("heroku run rake db:migrate -a app", "remote:heroku"),
    ("git send-email --to=dev@x.example 0001-fix.patch", "publish:email"),
    ("ssh-copy-id deploy@prod", "remote:ssh"),
    # GitHub: a mutation that deletes, a repository made public, a workflow run
    ("gh api graphql -f query='mutation { deleteRepository(input: {repositoryId: \"R\"}) "
     "{ clientMutationId } }'", "destroy:github"),
    ("gh repo edit --visibility public", "publish:github"),
    ("gh repo create app --public --source=. --push", "publish:github"),
    ("gh workflow run deploy.yml -f env=prod", "remote:github"),
    # programs a build tool runs because its properties name them
    ("mvn exec:exec -Dexec.executable=git -Dexec.args='reset --hard'", "discard:git-worktree"),
    # copies to another machine publish there
    ("scp dist/app.tar.gz deploy@prod:/srv/", "publish:ssh/prod"),
    ("rsync -az --exclude .git ./ prod:/srv/app", "publish:ssh/prod"),
    ("rsync -az --delete build/ web1:/var/www", "publish:ssh/web1 destroy:files@web1"),
]

SYSTEM = [
    ("firewall-cmd --permanent --remove-service=ssh", "system:firewall"),
    ("firewall-cmd --reload", "system:firewall"),
    ("pkill -u deploy", "system:processes"),  # every process of the user
    ("setenforce 0", "system:security"),
    ("aa-complain /etc/apparmor.d/usr.bin.x", "system:security"),
    ("rpm -e nginx", "destroy:packages"),
    ("emerge --depclean", "destroy:packages"),
    ("nix-env --uninstall hello", "destroy:packages"),
    ("nix-collect-garbage -d", "destroy:packages"),
    ("systemctl soft-reboot", "system:power"),
    ("systemctl default", "system:power"),
    ("systemctl daemon-reexec", "system:services"),
    ("systemctl preset-all", "system:services"),
    ("systemctl --user reset-failed", "system:user-services"),
    ("journalctl --vacuum-time=1s", "destroy:logs"),
    ("journalctl --rotate --vacuum-size 1K", "destroy:logs"),
    ("ip xfrm state flush", "system:network"),
    ("iptables-restore < rules.v4", "system:firewall"),
    ("rc-service sshd stop", "system:services"),
    ("rc-update del sshd default", "system:services"),
    ("sv down sshd", "system:services"),
    ("loginctl kill-session 3", "system:processes"),
    ("hostnamectl hostname web-1", "system:settings"),
    ("reboot", "system:power"),
    ("sudo shutdown -h now", "privilege:root system:power"),
    ("systemctl reboot", "system:power"),
    ("systemctl restart nginx", "system:services"),
    ("systemctl --now disable sshd", "system:services"),
    ("systemctl --user stop pipewire", "system:user-services"),
    ("service nginx stop", "system:services"),
    ("launchctl unload ~/Library/LaunchAgents/x.plist", "system:services"),
    ("sysctl -w net.ipv4.ip_forward=1", "system:kernel"),
    ("modprobe -r nouveau", "system:kernel"),
    ("mount /dev/sdb1 /mnt", "system:mounts"),
    ("umount /mnt", "system:mounts"),
    ("pkill -f node", "system:processes"),
    ("killall python3", "system:processes"),
    ("kill -9 -1", "system:processes"),
    ("kill -- -1", "system:processes"),
    ("iptables -F", "system:firewall"),
    ("sudo ufw disable", "privilege:root system:firewall"),
    ("nft flush ruleset", "system:firewall"),
    ("init 6", "system:power"),
    ("userdel -r bob", "system:users"),
    ("deluser --remove-home bob", "system:users"),
    ("delgroup devs", "system:users"),
    ("usermod -aG docker bob", "privilege:groups system:users"),
    ("gpasswd -a bob sudo", "privilege:groups"),
    ("gh api -X DELETE repos/me/x", "destroy:github"),
    ("http DELETE api.example.com/items/1", "destroy:http"),
    ("wget --method=DELETE https://api.example.com/x", "destroy:http"),
]

PRIVILEGE = [
    ("sudo apt-get install -y zsh", "privilege:root"),
    ("sudo -u postgres psql", "privilege:postgres"),
    ("sudo --user=www-data ls", "privilege:www-data"),
    ("doas -u bob id", "privilege:bob"),
    ("su - bob", "privilege:bob"),
    ("su -l bob -c id", "privilege:bob"),
    ("sudo ls -l", "privilege:root"),
    ("sudo FOO=1 git push --force", "privilege:root discard:git-remote publish:git-remote"),
    ("sudo rm -rf /opt/x", "privilege:root destroy:files"),
    ("su", "privilege:root"),
    ("su - root", "privilege:root"),
    ("su -c 'make install'", "privilege:root"),
    ("doas reboot", "privilege:root system:power"),
    ("pkexec visudo", "privilege:root"),
    ("setcap cap_net_bind_service=+ep ./server", "privilege:capabilities"),
    ("chmod u+s ./tool", "privilege:setuid"),
    ("chmod 4755 ./tool", "privilege:setuid"),
    ("chmod g+s dir", "privilege:setuid"),
]

# secrets kept elsewhere, printed where the line's reader (an agent's model) sees them
DISCLOSE = [
    ("kubectl get secret db -o yaml", "disclose:kubernetes"),
    ("kubectl -n prod get secret db -ojsonpath='{.data.password}'", "disclose:kubernetes"),
    ("kubectl get secrets --output=json", "disclose:kubernetes"),
    ("kubectl get secret/db -o go-template='{{.data.token}}'", "disclose:kubernetes"),
    ("vault kv get secret/db", "disclose:vault"),
    ("vault kv get -field=password secret/db", "disclose:vault"),
    ("vault read database/creds/readonly", "disclose:vault"),
    ("aws secretsmanager get-secret-value --secret-id prod/db", "disclose:aws"),
    ("aws ssm get-parameter --name db-pw --with-decryption", "disclose:aws"),
    ("aws ssm get-parameters-by-path --path /prod --recursive --with-decryption", "disclose:aws"),
    ("gcloud secrets versions access latest --secret=db", "disclose:gcloud"),
    ("az keyvault secret show --vault-name v -n db", "disclose:azure"),
    ("heroku config -a app", "disclose:heroku"),
    ("heroku config:get DATABASE_URL", "disclose:heroku"),
    ("ansible-vault view group_vars/all/vault.yml", "disclose:ansible-vault"),
    ("ansible-vault decrypt --output - vault.yml", "disclose:ansible-vault"),
]

# wrappers, substitutions and full paths carry the effects of what they run
WRAPPED = [
    ("xargs rm -rf < dirs.txt", "destroy:files"),
    ("find . -name node_modules | xargs -I{} rm -rf {}", "destroy:files"),
    ("ls | xargs -i rm -rf {}", "destroy:files"),
    ("ls | xargs -I X rm -rf X", "destroy:files"),
    ("ls | xargs -l rm -rf", "destroy:files"),
    ("ls | xargs -eEND rm -rf", "destroy:files"),
    ("env - git reset --hard", "discard:git-worktree"),
    ("env -i PATH=/bin git reset --hard", "discard:git-worktree"),
    ("env -P /usr/bin git clean -f", "discard:git-worktree"),
    ("busybox rm -rf /tmp/x", "destroy:files"),
    ("nice -n 5 timeout 60 git push --force", "discard:git-remote publish:git-remote"),
    ("echo $(git stash clear)", "discard:git-stash"),
    ("x=`git branch -D old`", "discard:git-branch"),
    ("bash -c 'git checkout -- .'", "discard:git-worktree"),
    ("sh -c \"kubectl delete pod x\"", "destroy:kubernetes"),
    ("eval 'rm -rf build'", "destroy:files"),
    ("/usr/local/bin/git stash drop", "discard:git-stash"),
    ("command git clean -fd", "discard:git-worktree"),
    ("time npm publish", "publish:npm"),
]

# tools guard has no spec for: a destructive verb among the first three operands
UNKNOWN_TOOLS = [
    ("mycli delete user 42", "destroy:mycli"),
    ("./manage.sh db reset", "destroy:manage.sh"),
    ("fly apps destroy my-app", "destroy:fly"),
    ("doctl compute droplet delete web", "destroy:doctl"),
    ("heroku apps:destroy --app x", "destroy:heroku"),
    ("firebase firestore:delete --all-collections", "destroy:firebase"),
    ("rails db:drop", "destroy:rails"),
    ("bin/rake db:reset", "destroy:rake"),
    ("mytool ./delete/me", ""),  # a path, not a verb
    ("mytool list --filter=delete", ""),
    ("pulumi stack rm dev", "destroy:pulumi"),
    ("s3cmd del s3://b/k", "destroy:s3cmd"),  # del deletes the objects
    ("nomad job purge web", "destroy:nomad"),
    ("supabase db reset", "destroy:supabase"),
    ("wrangler kv namespace delete --id x", "destroy:wrangler"),
    ("mytool force-delete x", "destroy:mytool"),
    ("mytool delete-bucket x", "destroy:mytool"),
    # an argument that is a command line a tool guard does not know may run through a shell
    ("nodemon --exec 'git reset --hard'", "discard:git-worktree"),
    ("hyperfine 'git clean -fdx'", "discard:git-worktree"),
    ("concurrently 'npm start' 'git stash clear'", "discard:git-stash"),
    ("mytool --cmd='git clean -fdx'", "discard:git-worktree"),
    ("watchexec -- 'git checkout -f'", "discard:git-worktree"),
    ("ls | entr -s 'git reset --hard'", "discard:git-worktree"),  # -s: through its $SHELL
    ("hyperfine 'make test'", ""),
    ("concurrently 'npm run dev' 'npm run api'", ""),
    ("mytool commit -m 'fix the rm handling'", ""),  # not a command line of a known command
]

# one verb model for every CLI with subcommands, known or not: a verb anywhere in the
# subcommand path (guard/knowledge/verbs.py)
VERB_MODEL = [
    ("npm owner rm bob pkg", "destroy:npm"),
    ("npm dist-tag rm pkg beta", "destroy:npm"),
    ("npm deprecate pkg@1 'no longer kept'", "destroy:npm"),
    ("npm token revoke 1234", "destroy:npm"),
    ("npm access revoke @org:team pkg", "destroy:npm"),
    ("pnpm unpublish pkg@1.0.0", "destroy:npm"),
    ("yarn npm unpublish", "destroy:yarn"),
    ("docker buildx rm builder", "destroy:docker"),
    ("docker network rm net", "destroy:docker"),
    ("docker context rm prod", "destroy:docker"),
    ("docker swarm leave --force", "destroy:docker"),
    ("docker service scale web=0", "destroy:docker"),
    ("docker compose rm -s web", "destroy:docker"),
    ("podman pod rm pod1", "destroy:podman"),
    ("kubectl scale --replicas=0 deploy/web", "destroy:kubectl"),
    ("kubectl scale deploy/web --replicas 0", "destroy:kubectl"),
    ("kubectl -n prod scale statefulset db --replicas=0", "destroy:kubectl"),
    ("kubectl rollout undo deploy/web", "destroy:kubectl"),
    ("kubectl config delete-context prod", "destroy:kubectl"),
    ("kubectl cordon node1 && kubectl drain node1", "destroy:kubernetes"),
    ("helm rollback web 3", "destroy:helm"),
    ("gh secret remove TOKEN", "destroy:gh"),
    ("gh label delete bug", "destroy:github"),
    ("gh auth logout && gh ssh-key delete 1", "destroy:github"),
    ("gh extension remove x", "destroy:gh"),
    ("aws s3api delete-bucket --bucket b", "destroy:aws"),
    ("aws ecr batch-delete-image --repository-name r", "destroy:aws"),
    ("gcloud beta compute instances delete vm", "destroy:gcloud"),
    ("az group delete -n rg", "destroy:azure"),
    ("terraform workspace delete dev", "destroy:terraform"),
    ("terraform state rm aws_instance.web", "destroy:terraform"),
    ("vault token revoke s.x", "destroy:vault"),
    ("cargo owner --remove bob", "destroy:cargo"),  # as `npm owner rm`: an owner revoked
    ("rustup self uninstall", "destroy:rustup"),
    ("go mod tidy", ""),
    ("pip cache purge", ""),
    ("glab repo delete grp/proj", "destroy:glab"),
    ("fly scale count 0", "destroy:fly"),
    ("heroku ps:scale web=0 -a app", "destroy:heroku"),
    ("tailscale logout", ""),
    ("alembic downgrade base", "destroy:alembic"),
    ("prisma migrate reset --force", "destroy:prisma"),
    ("kubeadm reset -f", "destroy:kubeadm"),
    ("minikube delete --all", "destroy:minikube"),
    ("virsh undefine vm && virsh destroy vm", "destroy:virsh"),
    ("virsh undefine vm", "destroy:virsh"),
    # what is no dry run: a value that says no, an option the tool does not have
    ("kubectl delete pod x --dry-run=none", "destroy:kubernetes"),
    ("kubectl delete pod x --dry-run=false", "destroy:kubernetes"),
    ("mytool delete x --dry-run", "destroy:mytool"),  # a tool guard does not know may ignore it
    ("rm -rf build --dry-run", "destroy:files"),
    # verbs in any case, and made of words in camel case
    ("mytool DELETE x", "destroy:mytool"),
    ("mytool Delete x", "destroy:mytool"),
    ("mytool deleteAll x", "destroy:mytool"),
    ("aliyun ecs DeleteInstance --InstanceId i-1", "destroy:aliyun"),
    ("mytool users RemoveUser bob", "destroy:mytool"),
    ("apt autoremove", "destroy:apt"),
    ("pacman -Rns firefox", "destroy:packages"),
    ("lvremove -f vg/lv", "destroy:device"),
    ("vgremove vg", "destroy:device"),
    ("restic forget --prune --keep-last 1", "destroy:restic"),
    ("yay --remove foo", "destroy:packages"),
    # words that look like a help or version form and are not: the command runs
    ("cargo yank --version 1.0 foo", "destroy:crates-io"),  # yank's own --version VALUE
    ("kubectl delete --help=false pod x", "destroy:kubernetes"),  # a flag set to false
    ("kubectl delete pod x -h=false", "destroy:kubernetes"),
    ("gh repo delete x --help=false", "destroy:github"),
    ("terraform destroy -help=false", "destroy:terraform"),
    ("mycli delete x --help=0", "destroy:mycli"),
    ("mycli delete x --version", "destroy:mycli"),  # a version after the subcommand: doubt
    # a long option that is a verb removes as the verb does
    ("cargo owner --remove bob foo", "destroy:cargo"),
    ("gem owner foo --remove bob", "destroy:gem"),
    ("az storage account update -n x --remove tags.team", "destroy:az"),
    ("mytool sync --delete ./out", "destroy:mytool"),
    ("sometool bucket --purge=true b", "destroy:sometool"),
    ("nomad job stop -purge web", "destroy:nomad"),  # Go's flags take one dash
    ("kafka-topics --bootstrap-server k:9092 --delete --topic x", "destroy:kafka-topics"),
    ("VBoxManage unregistervm devbox --delete", "destroy:VBoxManage"),
    ("aws kms schedule-key-deletion --key-id k1", "destroy:aws"),
    # a count of what runs set to zero, whatever the subcommand is called
    ("aws ecs update-service --service web --desired-count 0", "destroy:aws"),
    ("aws autoscaling update-auto-scaling-group --auto-scaling-group-name g --max-size 0",
     "destroy:aws"),
    ("az aks nodepool update -n p --node-count=0", "destroy:az"),
    ("docker compose up -d --scale worker=0", "destroy:docker"),
    # PostgreSQL's wrappers around DROP, and a brew tap removed
    ("dropdb prod", "destroy:database"),
    ("dropdb -h db.example.com -U admin --if-exists prod", "destroy:database"),
    ("dropuser bob", "destroy:database"),
    ("pg_dropcluster 15 main --stop", "destroy:database"),
    ("brew untap user/tools", "destroy:brew"),
    # a shell as root, a privileged pod: what runs there is not checked
    ("machinectl shell", "privilege:root"),
    ("machinectl shell root@ /bin/bash", "privilege:root"),
    ("kubectl run debug --image=busybox --privileged", "privilege:kubernetes"),
    # a task named with dots, its verb last; an option made of a verb (prisma --force-reset)
    ("mix ecto.drop", "destroy:mix"),
    ("mix ecto.reset", "destroy:mix"),
    ("prisma db push --force-reset", "destroy:prisma"),
    ("flyway clean", "destroy:database"),
    ("goose down", "destroy:database"),
    ("goose -dir db postgres 'user=app dbname=app' down-to 0", "destroy:database"),
    ("migrate -path db/migrations -database postgres://h/app down -all", "destroy:database"),
    ("migrate -database postgres://h/app drop -f", "destroy:database"),
    ("atlas schema clean -u postgres://h/db", "destroy:database"),
    # a script or module an interpreter runs is a tool guard does not know, read the same way
    ("python manage.py flush --no-input", "destroy:manage.py"),
    ("python3 -W ignore manage.py flush", "destroy:manage.py"),
    ("python -m django flush", "destroy:django"),
    ("php artisan db:wipe", "destroy:artisan"),
    ("node scripts/db.js drop", "destroy:db.js"),
    ("ruby bin/rails db:drop", "destroy:rails"),
    # fetch into a local branch by force moves it, as `git branch -f` does
    ("git fetch origin +main:main", "discard:git-branch"),
    ("git fetch -f origin pull/12/head:pr-12", "discard:git-branch"),
    # a saved plan applied, or a stack changed without a preview, nobody asked about
    ("terraform plan -destroy -out=d.tfplan && terraform apply d.tfplan", "destroy:terraform"),
    ("pulumi up --yes", "destroy:pulumi"),
    ("pulumi destroy -y", "destroy:pulumi"),
    ("pulumi stack rm dev", "destroy:pulumi"),
    # deploying publishes: the app, site or function leaves the machine for others
    ("fly deploy", "publish:fly"),
    ("vercel deploy --prod", "publish:vercel"),
    ("netlify deploy --prod --dir=dist", "publish:netlify"),
    ("firebase deploy --only hosting", "publish:firebase"),
    ("wrangler pages deploy dist", "publish:cloudflare"),
    ("railway up", "publish:railway"),
    ("sls deploy --stage prod", "publish:serverless"),
    ("cdk deploy --all", "publish:aws"),
    ("gcloud run deploy api --min-instances=0 --source .", "publish:gcloud"),
    ("gcloud beta functions deploy f", "publish:gcloud"),
    ("gcloud builds submit --tag gcr.io/p/app .", "publish:gcloud"),
    ("az webapp up -n app", "publish:azure"),
    ("az acr build -r reg -t app .", "publish:azure"),
    # a tool guard does not know named for what it destroys, and pg_restore --clean
    ("kafka-delete-records --bootstrap-server k:9092 --offset-json-file o.json",
     "destroy:kafka-delete-records"),
    ("./scripts/reset-db.sh", "destroy:reset-db.sh"),
    ("pg_restore --clean -d prod dump.sql", "destroy:database"),
]

VERB_MODEL_QUIET = [
    "arm-none-eabi-gcc -c main.c",  # no part of its name is a verb
    "update-alternatives --list editor",
    "./build.sh",
    "reset",  # one word: the terminal's reset, not a name made of a verb
    "pg_restore -d prod x.dump",
    "fly status",
    "vercel ls",
    "wrangler dev",
    "cdk synth",
    "sam build",
    "gcloud deploy releases list",
    "gcloud run services list",
    "terraform plan -destroy",
    "terraform apply",  # it asks before it changes anything
    "pulumi destroy --preview-only",
    "pulumi up",
    "pulumi preview --diff",
    "git fetch origin main:main",  # a fast-forward only
    "git fetch origin +refs/heads/*:refs/remotes/origin/*",  # remote-tracking refs
    "machinectl list",
    "mix ecto.migrate",
    "mytool reset.py",  # a file's name: its last part is its extension
    "python3 reset.py",
    "python manage.py migrate",
    "python manage.py collectstatic --clear --noinput",  # a script's own options
    "python3 -m pytest -k delete",  # a module guard knows: its own reading
    "python3 -m pip uninstall -y requests",
    "python3 -c 'print(1)' drop",  # code, not a script
    "perl -ne 'delete' file",  # code in a cluster of letters
    "ruby -pe 'gsub(/drop/, \"x\")' f",
    "php artisan migrate",
    "flyway info",
    "dropdb --help",
    "brew tap user/tools",
    "firewall-cmd --list-all",
    "pgrep -u deploy node",
    "getenforce",
    "rpm -qa",
    "nix-env -iA nixpkgs.hello",
    "nix-collect-garbage",
    "mvn exec:java -Dexec.mainClass=app.Main",
    "gh api graphql -f query='query { viewer { login } }'",
    "gh repo edit --visibility private",
    "gh repo create app --private",
    "gh run list --limit 5",
    "mvn -q -DskipTests package",
    "kubectl run web --image=nginx --port=80",
    "vagrant up",
    "heroku logs --tail -a app",
    "aws ssm describe-parameters",
    "az vm list -g g",
    "docker save -o img.tar app:1.0",
    "docker buildx build -o type=registry -t r/app .",
    "docker run --rm -v \"$PWD\":/w img make",  # --rm: its own container, once it exits
    "docker compose up -d --remove-orphans",  # an option made of a verb is not the verb
    "cargo owner --add bob foo",
    "aws ecs update-service --service web --desired-count 2",
    "docker compose up -d --scale worker=3",
    "gcloud run services update api --min-instances=0",  # scaling to zero when idle is the point
    "docker run --rm img find /tmp -delete",  # inside the container, after `run`
    "kubectl get pods --show-labels",
    "npm uninstall left-pad",
    "npm rm lodash",
    "npm prune",
    "npm cache clean --force",
    "pnpm remove react",
    "yarn remove react",
    "pip uninstall -y requests",
    "uv remove httpx",
    "poetry remove requests",
    "cargo remove serde",
    "brew uninstall jq",
    "go clean -cache",
    "docker rm old-container",
    "docker rmi app:old",
    "kubectl get pod rm-worker",
    "kubectl describe deploy delete-me",
    "kubectl scale --replicas=3 deploy/web",
    "kubectl logs job/cleanup-drop",
    "docker run --rm alpine rm -rf build",
    "docker compose run --rm web rm -rf tmp",
    "npm run clean:rm",
    "gh pr view 12",
    "gh run list --workflow delete.yml",
    "aws s3 ls s3://b/delete/",
    "gcloud compute instances list --filter=name:delete",
    "git rm src/old.py",
    "git reset HEAD src/a.py",
    "git remote remove upstream",
    "mytool GetDeletedItems",
    # dry runs, where the command's record names the option
    "kubectl delete -f k8s/ --dry-run=client",
    "kubectl delete pod x --dry-run=server",
    "kubectl apply --prune --dry-run=client -f k8s/",
    "helm uninstall web --dry-run",
    "rsync -an --delete src/ dst/",
    "rsync --delete --dry-run src/ dst/",
    "npm unpublish foo --dry-run",
    "apt-get -s remove foo",
    "apt-get --simulate remove foo",
    "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
    "aws s3 rm s3://b/x --recursive --dryrun",
    "git rm -n -rf src",
    "systemctl status sshd",
    "journalctl -u sshd --since today",
    "iptables-restore --test < rules.v4",
    "rc-service sshd status",
    "sv status sshd",
    "loginctl list-sessions",
    "ip xfrm state list",
    "duckdb db.duckdb -c 'SELECT count(*) FROM t'",
    "clickhouse-client -q 'SELECT 1'",
    "bq query 'SELECT 1'",
    "cqlsh -e 'DESCRIBE KEYSPACES'",
    "pacman -Syu",
    "pacman -Qi firefox",
    "mytool Build x",
    "mytool process DropBox.txt",
    "mytool ListDeletions",
    "git checkout-index -a",
    "git read-tree HEAD",
    "git prune -n",
    "git prune --dry-run",
    "git submodule deinit lib/x",
    "git update-ref refs/heads/topic HEAD",
    "git tag v1.2.3",
    "git tag -a v1.2.3 -m 'release'",
    "git tag -l 'v1.*'",
    "helm list --uninstalled",
    "terraform plan -destroy -out plan",
]

# read-only forms of destructive commands: help, manual pages, lookups (issue 27)
READ_ONLY_FORMS = [
    "terraform destroy -help",
    "terraform destroy --help",
    "tofu apply -destroy -help",
    "kubectl delete -h",
    "kubectl delete ns prod --help",
    "kubectl rollout undo -h",
    "aws s3 rm help",
    "aws ec2 terminate-instances help",
    "npm help uninstall",
    "npm unpublish --help",
    "npm owner rm -h",
    "gh help repo delete",
    "gh repo delete --help",
    "helm uninstall -h",
    "cargo help yank",
    "mycli delete --help",
    "mycli delete -h",
    "vault kv destroy -help",
    "man git-reset",
    "man 1 rm",
    "help cd",
    "info coreutils rm",
    "tldr docker-rm",
    "tldr git-reset",
    "tldr rm",
    "cheat kubectl-delete",
    "whatis shred",
    "apropos delete",
    "getent passwd root",
    "getent group sudo",
    "getent shadow bob",
    "openssl passwd -6 secret",
    "openssl passwd -1 -salt xyz secret",
]


def _table(*rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [row for table in rows for row in table]


@pytest.mark.parametrize(
    ("line", "expected"),
    _table(DESTROY, DISCARD, PUBLISH, REMOTE, PRIVILEGE, SYSTEM, DISCLOSE, WRAPPED, UNKNOWN_TOOLS)
    + VERB_MODEL,
)
def test_each_effect_is_read_from_the_argv(line: str, expected: str) -> None:
    assert effects(line) == set(expected.split())


# ordinary work: no effect, and the shipped policy allows the line
QUIET = [
    "goose -dir db postgres 'user=app' up",
    "migrate -path db/migrations -database postgres://h/app up",
    "migrate create -ext sql -dir db/migrations add_users",
    "kubectl get secrets",
    "kubectl get secret db",
    "kubectl describe secret db",
    "kubectl get pods -o wide",
    "vault kv list secret/",
    "vault status",
    "aws secretsmanager list-secrets",
    "aws secretsmanager describe-secret --secret-id db",
    "aws ssm get-parameter --name app-version",
    "gcloud secrets list",
    "az keyvault secret list --vault-name v",
    "heroku config:set LOG_LEVEL=debug -a app",
    "ansible-vault encrypt vault.yml",
    'git commit -m "explain git push --force and reset --hard"',
    "git commit -m 'rm -rf is dangerous' -m 'sudo too'",
    "rm --version",
    "rm --help",
    "git push --help",
    "git log",
    "git log --oneline -n 5",
    "git diff",
    "git diff --stat HEAD~1",
    "git status",
    "git checkout -b x",
    "git checkout main",
    "git checkout -b feature/y origin/feature/y",
    "git switch main",
    "git switch -c topic",
    "git branch -d x",
    "git -C . branch -d feature",
    "git -C . branch --show-current",
    "git -c color.ui=false branch -d x",
    "git -C sub checkout -b x",
    "git branch --list",
    "git stash",
    "git stash list",
    "git stash pop",
    "git stash show -p",
    "git restore --staged f",
    "git restore -S src/a.py",
    "git reset HEAD~1",
    "git reset --soft HEAD~1",
    "git clean -n",
    "git gc",
    "git worktree list",
    "git reflog",
    "redis-cli get key",
    "mongosh --eval 'db.users.find()'",
    "kubectl apply -f k8s/",
    "docker-compose up -d",
    "docker-compose down",
    "crontab -l",
    "fdisk -l",
    "iptables -L -n",
    "ufw status",
    "passwd -S",
    "ansible-playbook --syntax-check site.yml",
    "git clean -fn",
    "git fetch --prune",
    "git push",
    "git push -u origin main",
    "git push --dry-run --force",
    "docker ps -a",
    "docker rm old-container",
    "docker images",
    "docker run --rm -it ubuntu bash",
    "docker compose down",
    "find . -name '*.py' -print",
    "find . -type f -newer x -exec grep -l TODO {} +",
    "python -c 'print(1)'",
    "python3 -c 'print(1+1)'",
    "python3 -c 'import sys; print(sys.version)'",
    "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"name\"])' < package.json",
    "node -e 'console.log(1)'",
    "node -p 'process.version'",
    "ruby -e 'puts 1'",
    "perl -ne 'print if /x/' f.txt",
    "perl -pi -e 's/foo/bar/g' src/a.c",
    "rm -f build/a.o",
    "rm file.txt",
    "chmod +x script.sh",
    "chmod -r script.sh",
    "chmod 755 bin/tool",
    "chown me file",
    "dd if=/dev/urandom bs=16 count=1",
    "curl -fsSL https://example.com/x.json",
    "curl -G https://api.example.com -d '{\"delete\": true}'",
    "psql -c 'SELECT * FROM users'",
    "psql -c 'DELETE FROM t WHERE id = 1'",
    "sqlite3 app.db \"select 'drop table x'\"",
    "kubectl get pods",
    "kubectl logs web-1",
    "helm list",
    "terraform plan",
    "terraform apply",
    "aws s3 ls s3://bucket",
    "aws s3 cp a s3://b/a",
    "gcloud compute instances list",
    "gh pr create --title 'delete old files'",
    "gh release view v1",
    "npm test",
    "npm run build",
    "npm publish --dry-run",
    "cargo publish --dry-run",
    "cargo build --release",
    "make clean",
    "grep -r delete src",
    "echo rm -rf /",
    "echo sudo reset",
    "rsync -av src/ dest/",
    "mvn test",
    "./gradlew build",
    "printf '%s\\n' drop",
    "sort -u names.txt | uniq -c",
    "pytest -k reset tests/",
    "./configure --prefix=/w/proj/out",
    "systemctl status nginx",
    "systemctl --user status x",
    "journalctl -u nginx -n 50",
    "kill %1",
    "kill -l",
    "kill -0 4242",
    "mount",
    "sysctl net.ipv4.ip_forward",
    "scp prod:/var/log/app.log logs/",
    "rsync -a prod:/srv/data/ data/",
    "docker logs -f web",
    "kubectl get pods -o wide",
    "mytool list",
    "rails db:migrate",
    "rake test:all",
    "mytool show delete.txt",
    "./run.sh",
    "rclone ls remote:",
    "rclone copy ./dist remote:bucket/site --include '*.html'",
    "rclone sync --dry-run ./site remote:www",
    "rclone copy remote:photos ./in --transfers 8",
]


@pytest.mark.parametrize("line", QUIET + VERB_MODEL_QUIET + READ_ONLY_FORMS)
def test_ordinary_lines_have_no_effect_and_are_allowed(shipped: Policy, line: str) -> None:
    assert effects(line) - {"publish:git-remote"} == set()
    assert verdict(shipped, line) == "allow"


@pytest.mark.parametrize(
    ("line", "expected"),
    _table(DESTROY, DISCARD, REMOTE, PRIVILEGE, SYSTEM, DISCLOSE, WRAPPED, UNKNOWN_TOOLS[:4]),
)
def test_the_shipped_policy_asks_for_each_effect(
    shipped: Policy, line: str, expected: str
) -> None:
    result = decide(shipped, project(line, CTX), (), home=H)
    assert result.decision == "ask"
    asked = {
        f"{d.request.kind}:{d.request.target}"
        for d in result.decided
        if d.request.surface == "effect" and d.decision == "ask"
    }
    assert asked == set(expected.split()) - {"publish:git-remote"}


@pytest.mark.parametrize("line", [line for line, _ in PUBLISH if not line.startswith("git")])
def test_publishing_asks_but_a_plain_git_push_does_not(shipped: Policy, line: str) -> None:
    assert verdict(shipped, line) == "ask"


def test_an_effect_is_a_request_with_its_kind_target_and_the_command() -> None:
    (request,) = [r for r in project("git checkout -- .", CTX).requests if r.surface == "effect"]
    assert (request.kind, request.target) == ("discard", "git-worktree")
    assert request.argv == ("git", "checkout", "--", ".")
    assert request.text == "git checkout -- ."
    assert request.span == (0, len("git checkout -- ."))
    assert request.reason == "checkout of paths overwrites their uncommitted changes"


def test_an_unknown_subcommand_of_a_tool_with_effects_asks(shipped: Policy) -> None:
    requests = project('docker "$ACTION" web', CTX).requests
    assert [r.role for r in requests if r.surface == "dynamic"] == ["command_name"]
    assert verdict(shipped, 'docker "$ACTION" web') == "ask"


def test_an_unknown_tool_says_why_it_asks() -> None:
    (request,) = [r for r in project("mycli delete x", CTX).requests if r.surface == "effect"]
    assert request.reason.startswith("unknown tool, destructive verb")


def test_force_with_lease_gives_a_lesser_reason() -> None:
    reasons = {r.reason for r in project("git push --force-with-lease", CTX).requests}
    assert any("only if the remote has not moved" in reason for reason in reasons)


def test_the_remote_command_of_ssh_is_not_a_local_access() -> None:
    requests = project("ssh prod 'cat /etc/shadow; rm -rf /srv/x'", CTX).requests
    assert not [r for r in requests if r.surface == "external_directory"]
    reasons = [r.reason for r in requests if r.surface == "effect"]
    assert "recursive delete (on prod)" in reasons


# -- policy, approvals and what a user sees ---------------------------------------------------


def test_a_user_rule_on_kind_target_allows_or_denies_an_effect(tmp_path: object) -> None:
    import os
    from pathlib import Path

    config = Path(os.environ["GUARD_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        '[[rules]]\nsurface = "effect"\npattern = "destroy:files"\naction = "allow"\n\n'
        '[[rules]]\nsurface = "effect"\npattern = "publish:*"\naction = "deny"\n'
        'reason = "releases are made by hand"\n'
    )
    policy = load_policy(None, home=H)
    assert policy.problems == ()
    assert verdict(policy, "rm -rf build") == "allow"
    assert verdict(policy, "ssh prod 'rm -rf /srv/x'") == "ask"  # another machine's files
    assert verdict(policy, "npm publish") == "deny"
    assert verdict(policy, "git push") == "deny"
    assert verdict(policy, "git reset --hard") == "ask"


def test_the_effect_default_can_be_set_in_a_policy_file() -> None:
    import os
    from pathlib import Path

    config = Path(os.environ["GUARD_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[defaults]\neffect = "deny"\n')
    policy = load_policy(None, home=H)
    assert (policy.problems, policy.defaults["effect"]) == ((), "deny")
    assert verdict(policy, "git stash clear") == "deny"
    assert verdict(policy, "git push") == "allow"  # the shipped rule still matches
    assert verdict(policy, "git status") == "allow"


def test_a_session_approval_of_an_effect_covers_its_kind_and_target(shipped: Policy) -> None:
    from guard.approvals.arity import approval_choices
    from guard.verdict.store.schema import Approval

    (request,) = [r for r in project("git stash clear", CTX).requests if r.surface == "effect"]
    (choice,) = approval_choices(request, home=H)
    assert (choice.surface, choice.pattern, choice.label) == (
        "effect",
        "discard:git-stash",
        "discard git-stash",
    )
    granted = (Approval(7, "s1", "session", "effect", choice.pattern, None, "human", 0.0, "…"),)
    for line, expected in [
        ("git stash clear", "allow"),
        ("git stash drop stash@{2}", "allow"),
        ("git reset --hard", "ask"),
        ("git branch -D x", "ask"),
    ]:
        result = decide(shipped, project(line, CTX), granted, home=H)
        assert result.decision == expected, line


def test_explain_shows_effects_in_their_own_section_and_json_has_kind_and_target(
    tmp_path: object,
) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    ws = Path(str(tmp_path)) / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    run = [sys.executable, "-m", "guard", "explain"]
    line = 'git checkout -- . && git commit -m "no --force here"'
    human = subprocess.run([*run, "--", line], cwd=ws, capture_output=True, text=True, timeout=60)
    lines = human.stdout.splitlines()
    assert "effects:" in lines
    section = lines[lines.index("effects:") + 1 : lines.index("verdict: ask")]
    assert len(section) == 1  # the commit message's --force is only data
    assert section[0].startswith("  ask   effect  discard git-worktree  (git checkout -- .)")
    done = subprocess.run(
        [*run, "--json", "--", line], cwd=ws, capture_output=True, text=True, timeout=60
    )
    (effect,) = [r for r in json.loads(done.stdout)["requests"] if r["surface"] == "effect"]
    assert (effect["kind"], effect["target"], effect["decision"]) == (
        "discard",
        "git-worktree",
        "ask",
    )
    assert effect["argv"] == ["git", "checkout", "--", "."]


def test_guard_check_asks_for_an_effect_and_not_for_a_message_that_names_one(
    tmp_path: object,
) -> None:
    import subprocess
    import sys
    from pathlib import Path

    ws = Path(str(tmp_path)) / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)

    def check(line: str) -> int:
        done = subprocess.run(
            [sys.executable, "-m", "guard", "check", "--no-prompt", "--", line],
            cwd=ws, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        return done.returncode

    assert check("git stash clear") == 3
    assert check("git reset --ha") == 3
    assert check('git commit -m "explain git stash clear and push --force"') == 0
    assert check("git push") == 0


# git checkout's operands: a path loses its uncommitted changes as with `--`, told from a
# branch as git tells them (a word naming something in the worktree is a path)
GIT_PATH_OPERANDS = [
    ("git checkout README.md", "discard:git-worktree"),
    ("git checkout src", "discard:git-worktree"),
    ("git checkout src/app.py", "discard:git-worktree"),
    ("git checkout HEAD src/app.py", "discard:git-worktree"),
    ("git checkout HEAD~3 README.md docs", "discard:git-worktree"),
    ("git checkout main nothing-here.txt", "discard:git-worktree"),  # REV then a pathspec
    ("git checkout --theirs README.md", "discard:git-worktree"),
    ("git checkout '*.md'", "discard:git-worktree"),
    ("git checkout ':(glob)**/*.py'", "discard:git-worktree"),
    ("cd src && git checkout app.py", "discard:git-worktree"),
    ("git -C src checkout app.py", "discard:git-worktree"),
    ("git checkout \"$F\"", "discard:git-worktree"),  # a word not known: it may be a path
    ("git rm -f README.md", "discard:git-worktree"),
    ("git checkout --pathspec-from-file=paths.txt", "discard:git-worktree"),
    ("git checkout --pathspec-from-file paths.txt HEAD~1", "discard:git-worktree"),
    ("git checkout -m README.md", "discard:git-worktree"),  # -m is --merge, not a message
    ("git checkout main", ""),
    ("git checkout -m main", ""),
    ("git checkout feature/login", ""),
    ("git checkout -", ""),
    ("git checkout v1.2.0", ""),
    ("git checkout -b topic origin/topic", ""),
    ("git checkout --detach HEAD~1", ""),
    ("git -C src checkout main", ""),
    ("git rm README.md", ""),
]


@pytest.mark.parametrize(("line", "expected"), GIT_PATH_OPERANDS)
def test_git_checkout_tells_a_path_from_a_branch(
    tmp_path: Path, line: str, expected: str
) -> None:
    from guard.verdict.workspace import build_context

    ws = tmp_path / "proj"
    (ws / "src").mkdir(parents=True)
    (ws / "docs").mkdir()
    (ws / "README.md").write_text("x")
    (ws / "src" / "app.py").write_text("x")
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    ctx = build_context(str(ws), {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    found = {f"{r.kind}:{r.target}" for r in project(line, ctx).requests if r.surface == "effect"}
    assert found == set(expected.split())
