#!/bin/sh
# Upgrades (or first builds) a Referee server in place, from its checkout: the new code, the
# runtime dependencies (no test tools), the compiled catalogues, the database schema, and a
# restart of the service. Run it as root (the only one who may restart the service: as another
# user it refuses where the service exists), or without a service as the user who owns the
# checkout; as root the build steps run as that owner (runuser), so every file stays theirs. docs/club-server.md,
# "Upgrading a server", says when to use each option.
set -eu

usage() {
	cat <<'TEXT'
usage: tools/upgrade.sh [--no-pull] [--no-restart]
  --no-pull     keep the code in place (a release tarball unpacked over the checkout)
  --no-restart  do not restart the service; the schema is then upgraded here
Environment: REFEREE_SERVICE (default referee.service), and the server's own DATABASE_URL
when the schema is upgraded here.
TEXT
}

pull=1 restart=1 stage=all
for arg in "$@"; do
	case $arg in
	--no-pull) pull=0 ;;
	--no-restart) restart=0 ;;
	--build) stage=build ;; # internal: the owner's half, when root runs the script
	-h | --help) usage; exit 0 ;;
	*) echo "upgrade: unknown option $arg" >&2; usage >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
service=${REFEREE_SERVICE:-referee.service}

build() {
	if [ "$pull" = 0 ]; then
		echo "code: kept as it is in $here (--no-pull)"
	elif [ -d .git ]; then
		git pull --ff-only
		echo "code: pulled ($(git log -1 --format='%h %cs'))"
	else
		echo "code: no git checkout in $here, so it is kept as it is (unpack a new release over it)"
	fi
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-cache-dir -c constraints.txt -e .
	echo "dependencies: installed in $here/.venv (the runtime set only)"
	.venv/bin/python -m babel.messages.frontend -q compile --use-fuzzy -d referee/translations
	echo "catalogues: compiled"
}

if [ "$stage" = build ]; then
	build
	exit 0
fi

owner=$(stat -c %U .)
as_owner() {
	if [ "$(id -u)" = 0 ] && [ "$owner" != root ]; then
		runuser -u "$owner" -- "$@"
	else
		"$@"
	fi
}

managed=0
if [ "$restart" = 1 ] && command -v systemctl >/dev/null 2>&1 && systemctl cat "$service" >/dev/null 2>&1; then
	managed=1
fi

if [ "$managed" = 1 ] && [ "$(id -u)" != 0 ]; then
	# The timers (backup, ratings) start the new code at once; only the service's restart, which
	# needs root, upgrades the schema. Refused before anything changes, rather than run new code
	# on the old schema until root comes by.
	echo "upgrade: $service serves this checkout and only root can restart it, which upgrades the schema:" \
		"nothing was changed. Run tools/upgrade.sh as root (it builds as $owner)." >&2
	exit 1
fi

flags=""
[ "$pull" = 1 ] || flags="--no-pull"
# shellcheck disable=SC2086 # $flags is one word or none
as_owner "$here/tools/upgrade.sh" --build $flags

if [ "$managed" = 0 ]; then
	as_owner .venv/bin/python -m flask --app referee db upgrade
	echo "schema: upgraded (flask db upgrade)"
	echo "restart: no $service here$([ "$restart" = 1 ] || echo ' (--no-restart)'): start the server again to serve the new code"
else
	systemctl restart "$service"
	systemctl is-active --quiet "$service"
	echo "restart: $service restarted; its start upgraded the schema (ExecStartPre=flask db upgrade)"
fi
echo "Referee $(.venv/bin/python -c 'import referee; print(referee.__version__)') is in place."
