# shellcheck shell=bash
# containers.sh: which of a Domain's containers are left when it is down
# (bash, sourced; sets no shell options). A Domain whose teardown went
# well leaves its next start's sidecar and sandbox prepared (issue 19,
# core/sandbox-prep.h): created, never started, labelled lazaret.prepared.
# Anything else labelled with the Domain is live: a running Domain's, or a
# leftover.
#
#   lz_live_containers ID [RUN...]      prints "CONTAINER-ID STATE" of each
#                                       container of Domain ID (of any
#                                       Domain when ID is "") that is not
#                                       a prepared one, a line each
#   lz_prepared_containers ID [RUN...]  the prepared ones, the same way
#
# RUN is a command prefix that runs podman as the account (lz_acct_run,
# as root), or nothing. Both return podman's failure (nothing printed).

lz_domain_containers() {	# WANT(live|prepared) ID [RUN...]
	local want=$1 id=$2 out
	shift 2
	out=$(cd / && "$@" podman ps -a --filter "label=lazaret.domain${id:+=$id}" \
	    --format '{{.ID}} {{.State}} {{index .Labels "lazaret.prepared"}}') ||
	    return
	awk -v want="$want" 'NF >= 2 {
		p = tolower($2) == "created" && $3 != ""
		if ((want == "prepared") == p) print $1, $2
	}' <<<"$out"
}
lz_live_containers() { lz_domain_containers live "$@"; }
lz_prepared_containers() { lz_domain_containers prepared "$@"; }
