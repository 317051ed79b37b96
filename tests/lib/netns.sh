# shellcheck shell=bash
# netns.sh: the network suite's own test hosts (bash, sourced by the
# tests/network scripts, which run as root). Traffic of a test goes only to
# loopback or to addresses the test assigned itself inside a network
# namespace it created, and only after lz_route_ok has seen that the
# address leaves by the test's own veth.
#
#   lz_ns_add NS HOSTDEV NSDEV HOSTADDR/LEN NSADDR/LEN...
#       creates netns NS joined to the host by the veth pair HOSTDEV
#       (host side, HOSTADDR) and NSDEV (in NS, each NSADDR), with NS's
#       default route via HOSTADDR; returns non-zero when any step fails
#   lz_ns_del NS HOSTDEV
#       removes both (silent when they are gone)
#   lz_route_ok ADDR DEV
#       0 when "ip route get ADDR" leaves by DEV; otherwise 1, with the
#       route the kernel chose in LZ_NS_WHY

LZ_NS_WHY=

lz_ns_add() {
	local ns=$1 hd=$2 nd=$3 ha=$4 a
	shift 4
	ip netns add "$ns" && ip link add "$hd" type veth peer name "$nd" &&
	    ip link set "$nd" netns "$ns" && ip addr add "$ha" dev "$hd" &&
	    ip link set "$hd" up && ip -n "$ns" link set lo up &&
	    ip -n "$ns" link set "$nd" up || return 1
	for a in "$@"; do ip -n "$ns" addr add "$a" dev "$nd" || return 1; done
	ip -n "$ns" route add default via "${ha%/*}" dev "$nd"
}

lz_ns_del() {
	ip netns del "$1" 2>/dev/null
	ip link del "$2" 2>/dev/null
	return 0
}

lz_route_ok() {
	local r
	r=$(ip route get "$1" 2>&1)
	grep -q " dev $2 " <<<"$r" && return 0
	LZ_NS_WHY="$1 does not leave by $2: $r"
	return 1
}
