/*
 * lazaret-netpolicy.c: the Network Sidecar's only program, the only file
 * of its image. Run as "/lazaret-netpolicy POLICY" (POLICY: the canonical
 * text of core/netpolicy.h), or "/lazaret-netpolicy POLICY DOMAIN-ID" to
 * attest its attachment (the key and component IDs from the file bound at
 * LZ_NETPOLICY_KEY_PATH; a lazaret from before issue 19 passes
 * "POLICY DOMAIN-ID SIDECAR-ID SANDBOX-ID" and a file with the key only,
 * still accepted so that such a lazaret keeps working with this image),
 * under crun with NET_ADMIN only, in the
 * slirp4netns netns the Agent Sandbox later joins. It installs the policy
 * as IPv4 routes of the main table over raw rtnetlink, checks that IPv6 is
 * disabled, verifies the result (a dump of the main table must hold
 * exactly the policy's routes, and an RTM_GETROUTE lookup of every probe
 * address must give the decision the table gives: no packet is sent),
 * prints "ready <sha-256 of POLICY>[ <attachment MAC>]" and waits, holding the netns, until
 * it is killed. Any failure is one "lazaret-netpolicy: ..." line on stderr
 * and exit status 1, before "ready" is printed.
 *
 * Routes: a denied prefix is an "unreachable" route (connect fails at once
 * with EHOSTUNREACH); an allowed prefix inside slirp4netns's 10.0.2.0/24
 * is on-link on tap0; any other allowed prefix goes via 10.0.2.2 dev tap0
 * "onlink". The kernel's connected 10.0.2.0/24 route is deleted first, so
 * the gateway itself (the path slirp4netns offers to the host's loopback,
 * also refused by allow_host_loopback=false) is reachable only if the
 * policy says so; an address no rule covers is denied.
 *
 * Built static without sanitizers (cmake/static-helpers.cmake); no libc
 * name lookups (no getaddrinfo, no NSS), no shell, nothing else exec'd.
 * Its logic (parse, lookup, probes) is core/netpolicy.c, unit-tested.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/netpolicy.h"

#define PROG "lazaret-netpolicy"
#define NL_BUF 16384

struct nl {
	int fd;
	unsigned seq;
	int ifindex;
};

struct req {
	struct nlmsghdr nh;
	struct rtmsg rt;
	char attrs[128];
};

struct route {
	int error;		/* negative errno from the kernel, or 0 */
	int type;		/* RTN_* */
	int table;
	int oif;
	uint32_t dst;		/* host byte order */
	unsigned dst_len;
	int has_gateway;
	uint32_t gateway;
};

static void	 die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
		     noreturn));
static void	 on_term(int sig);
static void	 addattr(struct req *r, int type, const void *data, size_t len);
static void	 req_init(struct req *r, int type, int flags, uint32_t dst,
		     unsigned len);
static int	 nl_talk(struct nl *nl, struct req *r, struct route *out);
static void	 parse_route(struct nlmsghdr *h, struct route *out);
static void	 check_ipv6(void);
static void	 install(struct nl *nl, const struct lz_netpolicy *np);
static void	 verify_table(struct nl *nl, const struct lz_netpolicy *np);
static void	 verify_probes(struct nl *nl, const struct lz_netpolicy *np);
static const char *ipstr(uint32_t a);

static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
on_term(int sig)
{
	(void)sig;
	_exit(0);
}

/* A static buffer is fine: one caller at a time, single thread. */
static const char *
ipstr(uint32_t a)
{
	static char buf[4][INET_ADDRSTRLEN];
	static int k;
	struct in_addr in;

	k = (k + 1) % 4;
	in.s_addr = htonl(a);
	if (inet_ntop(AF_INET, &in, buf[k], sizeof buf[k]) == NULL)
		return "?";
	return buf[k];
}

static void
addattr(struct req *r, int type, const void *data, size_t len)
{
	struct rtattr *rta;
	size_t off = NLMSG_ALIGN(r->nh.nlmsg_len);

	if (off + RTA_SPACE(len) > sizeof *r)
		die("netlink request too large");
	rta = (struct rtattr *)((char *)r + off);
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	r->nh.nlmsg_len = off + RTA_SPACE(len);
}

static void
req_init(struct req *r, int type, int flags, uint32_t dst, unsigned len)
{
	uint32_t be = htonl(dst);

	memset(r, 0, sizeof *r);
	r->nh.nlmsg_len = NLMSG_LENGTH(sizeof r->rt);
	r->nh.nlmsg_type = type;
	r->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->rt.rtm_family = AF_INET;
	r->rt.rtm_dst_len = len;
	r->rt.rtm_table = RT_TABLE_MAIN;
	if (type != RTM_GETROUTE || !(flags & NLM_F_DUMP))
		addattr(r, RTA_DST, &be, sizeof be);
}

static void
parse_route(struct nlmsghdr *h, struct route *out)
{
	struct rtmsg *rt = NLMSG_DATA(h);
	struct rtattr *a;
	int n = RTM_PAYLOAD(h);
	uint32_t v;

	memset(out, 0, sizeof *out);
	out->type = rt->rtm_type;
	out->table = rt->rtm_table;
	out->dst_len = rt->rtm_dst_len;
	for (a = RTM_RTA(rt); RTA_OK(a, n); a = RTA_NEXT(a, n)) {
		switch (a->rta_type) {
		case RTA_TABLE:
			memcpy(&v, RTA_DATA(a), 4);
			out->table = v;
			break;
		case RTA_OIF:
			memcpy(&v, RTA_DATA(a), 4);
			out->oif = v;
			break;
		case RTA_DST:
			memcpy(&v, RTA_DATA(a), 4);
			out->dst = ntohl(v);
			break;
		case RTA_GATEWAY:
			memcpy(&v, RTA_DATA(a), 4);
			out->gateway = ntohl(v);
			out->has_gateway = 1;
			break;
		}
	}
}

/* Sends request r with the next sequence number (its answers carry it). */
static void
nl_send(struct nl *nl, struct req *r)
{
	struct sockaddr_nl sa;

	memset(&sa, 0, sizeof sa);
	sa.nl_family = AF_NETLINK;
	r->nh.nlmsg_seq = ++nl->seq;
	if (sendto(nl->fd, r, r->nh.nlmsg_len, 0, (struct sockaddr *)&sa,
	    sizeof sa) < 0)
		die("netlink send: %s", strerror(errno));
}

/* Reads one datagram of answers into buf; returns its length. */
static ssize_t
nl_recv(struct nl *nl, char *buf, size_t size)
{
	ssize_t n;

	while ((n = recv(nl->fd, buf, size, 0)) < 0) {
		if (errno != EINTR)
			die("netlink receive: %s", strerror(errno));
	}
	return n;
}

/*
 * Sends one request and reads until its answer: the ACK (out NULL), or the
 * one route of a lookup (out set; out->error holds a kernel refusal).
 * Returns the kernel's negative errno for a refused change, 0 otherwise.
 */
static int
nl_talk(struct nl *nl, struct req *r, struct route *out)
{
	static char buf[NL_BUF];
	struct nlmsghdr *h;
	struct nlmsgerr *e;
	ssize_t n;

	nl_send(nl, r);
	for (;;) {
		n = nl_recv(nl, buf, sizeof buf);
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		    h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != nl->seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				e = NLMSG_DATA(h);
				if (out != NULL) {
					memset(out, 0, sizeof *out);
					out->error = e->error;
				}
				return out != NULL ? 0 : e->error;
			}
			if (h->nlmsg_type == RTM_NEWROUTE && out != NULL) {
				parse_route(h, out);
				return 0;
			}
		}
	}
}

/* IPv6 must be off in this netns (podman --sysctl, SR-6). */
static void
check_ipv6(void)
{
	static const char *const files[] = {
	    "/proc/sys/net/ipv6/conf/all/disable_ipv6",
	    "/proc/sys/net/ipv6/conf/default/disable_ipv6" };
	char c = 0;
	size_t i;
	int fd;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		if ((fd = open(files[i], O_RDONLY | O_CLOEXEC)) < 0) {
			if (errno == ENOENT)
				continue;	/* no IPv6 in this kernel */
			die("cannot open '%s': %s", files[i], strerror(errno));
		}
		if (read(fd, &c, 1) != 1)
			die("cannot read '%s': %s", files[i], strerror(errno));
		close(fd);
		if (c != '1')
			die("IPv6 is enabled in the sidecar's netns ('%s' is "
			    "%c; start it with --sysctl "
			    "net.ipv6.conf.all.disable_ipv6=1)", files[i], c);
	}
}

static void
install(struct nl *nl, const struct lz_netpolicy *np)
{
	const struct lz_netpolicy_rule *r;
	struct req q;
	uint32_t gw = htonl(LZ_NETPOLICY_GATEWAY);
	size_t i;
	int rc, has_default = 0, oif = nl->ifindex;

	/* The kernel's connected route of tap0's /24 goes first. */
	req_init(&q, RTM_DELROUTE, NLM_F_ACK, LZ_NETPOLICY_SLIRP_NET,
	    LZ_NETPOLICY_SLIRP_LEN);
	q.rt.rtm_scope = RT_SCOPE_NOWHERE;
	addattr(&q, RTA_OIF, &oif, sizeof oif);
	rc = nl_talk(nl, &q, NULL);
	if (rc != 0 && rc != -ESRCH)
		die("cannot delete the route of %s/%d: %s",
		    ipstr(LZ_NETPOLICY_SLIRP_NET), LZ_NETPOLICY_SLIRP_LEN,
		    strerror(-rc));
	for (i = 0; i < np->nrules; i++) {
		r = &np->rules[i];
		if (r->prefix.len == 0)
			has_default = 1;
		req_init(&q, RTM_NEWROUTE, NLM_F_ACK | NLM_F_CREATE |
		    NLM_F_REPLACE, r->prefix.addr, r->prefix.len);
		q.rt.rtm_protocol = RTPROT_STATIC;
		if (!r->allow) {
			q.rt.rtm_type = RTN_UNREACHABLE;
			q.rt.rtm_scope = RT_SCOPE_UNIVERSE;
		} else if (lz_netpolicy_in_slirp(r->prefix.addr) &&
		    r->prefix.len >= LZ_NETPOLICY_SLIRP_LEN) {
			q.rt.rtm_type = RTN_UNICAST;
			q.rt.rtm_scope = RT_SCOPE_LINK;
			addattr(&q, RTA_OIF, &oif, sizeof oif);
		} else {
			q.rt.rtm_type = RTN_UNICAST;
			q.rt.rtm_scope = RT_SCOPE_UNIVERSE;
			q.rt.rtm_flags = RTNH_F_ONLINK;
			addattr(&q, RTA_GATEWAY, &gw, sizeof gw);
			addattr(&q, RTA_OIF, &oif, sizeof oif);
		}
		if ((rc = nl_talk(nl, &q, NULL)) != 0)
			die("cannot install '%s %s/%u': %s", r->allow ?
			    "allow" : "deny", ipstr(r->prefix.addr),
			    r->prefix.len, strerror(-rc));
	}
	/* No rule for 0.0.0.0/0: what nothing covers is denied. */
	if (!has_default) {
		req_init(&q, RTM_NEWROUTE, NLM_F_ACK | NLM_F_CREATE |
		    NLM_F_REPLACE, 0, 0);
		q.rt.rtm_protocol = RTPROT_STATIC;
		q.rt.rtm_type = RTN_UNREACHABLE;
		q.rt.rtm_scope = RT_SCOPE_UNIVERSE;
		if ((rc = nl_talk(nl, &q, NULL)) != 0)
			die("cannot install the default deny: %s",
			    strerror(-rc));
	}
}

/*
 * The main table holds exactly the policy's routes, each of the right
 * type (and an unreachable default when no rule covers 0.0.0.0/0).
 */
static void
verify_table(struct nl *nl, const struct lz_netpolicy *np)
{
	static char buf[NL_BUF];
	struct nlmsghdr *h;
	struct route rt;
	struct req q;
	unsigned char *seen;
	size_t i;
	ssize_t n;
	int done = 0, want_type, found_default = 0;

	seen = calloc(np->nrules + 1, 1);
	if (seen == NULL)
		die("out of memory");
	req_init(&q, RTM_GETROUTE, NLM_F_DUMP, 0, 0);
	q.rt.rtm_table = 0;
	nl_send(nl, &q);
	while (!done) {
		n = nl_recv(nl, buf, sizeof buf);
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		    h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != nl->seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR)
				die("route dump refused: %s", strerror(
				    -((struct nlmsgerr *)NLMSG_DATA(h))->error));
			if (h->nlmsg_type != RTM_NEWROUTE)
				continue;
			parse_route(h, &rt);
			if (rt.table != RT_TABLE_MAIN)
				continue;
			for (i = 0; i < np->nrules; i++) {
				if (np->rules[i].prefix.addr == rt.dst &&
				    np->rules[i].prefix.len == rt.dst_len)
					break;
			}
			if (i == np->nrules && rt.dst_len == 0 &&
			    rt.type == RTN_UNREACHABLE) {
				found_default = 1;
				continue;
			}
			if (i == np->nrules)
				die("route %s/%u is in the table but not in "
				    "the policy", ipstr(rt.dst), rt.dst_len);
			want_type = np->rules[i].allow ? RTN_UNICAST :
			    RTN_UNREACHABLE;
			if (rt.type != want_type || seen[i] || (np->rules[i].
			    allow && rt.oif != nl->ifindex))
				die("route %s/%u is not what the policy says "
				    "(type %d, device %d)", ipstr(rt.dst),
				    rt.dst_len, rt.type, rt.oif);
			seen[i] = 1;
		}
	}
	for (i = 0; i < np->nrules; i++) {
		if (!seen[i])
			die("route %s/%u is missing after install",
			    ipstr(np->rules[i].prefix.addr),
			    np->rules[i].prefix.len);
		if (np->rules[i].prefix.len == 0)
			found_default = 1;
	}
	if (!found_default)
		die("no default route or default deny after install");
	free(seen);
}

/* One route lookup per probe address: the kernel decides as the table. */
static void
verify_probes(struct nl *nl, const struct lz_netpolicy *np)
{
	struct lz_netpolicy_probe *v;
	struct route rt;
	struct req q;
	size_t i, n;
	int allowed;

	lz_netpolicy_probes(np, &v, &n);
	for (i = 0; i < n; i++) {
		req_init(&q, RTM_GETROUTE, 0, v[i].addr, 32);
		q.rt.rtm_table = 0;
		nl_talk(nl, &q, &rt);
		if (rt.error != 0 && rt.error != -EHOSTUNREACH &&
		    rt.error != -ENETUNREACH && rt.error != -EINVAL &&
		    rt.error != -EACCES)
			die("route lookup of %s failed: %s", ipstr(v[i].addr),
			    strerror(-rt.error));
		allowed = rt.error == 0 && rt.type == RTN_UNICAST;
		if (allowed != v[i].allow)
			die("route lookup of %s (%s) says %s, the policy "
			    "says %s", ipstr(v[i].addr), v[i].why, allowed ?
			    "allow" : "deny", v[i].allow ? "allow" : "deny");
		if (!allowed)
			continue;
		if (rt.oif != nl->ifindex || rt.has_gateway !=
		    v[i].via_gateway || (rt.has_gateway && rt.gateway !=
		    LZ_NETPOLICY_GATEWAY))
			die("route lookup of %s (%s) leaves by device %d%s%s, "
			    "not %s %s", ipstr(v[i].addr), v[i].why, rt.oif,
			    rt.has_gateway ? " via " : "", rt.has_gateway ?
			    ipstr(rt.gateway) : "", LZ_NETPOLICY_DEV,
			    v[i].via_gateway ? "via the gateway" : "on-link");
	}
	free(v);
}

/*
 * The readiness MAC (network attachment, SR-9) with this start's key and
 * component IDs, which the coordinator wrote to the file bound at
 * LZ_NETPOLICY_KEY_PATH just before the container started (nothing of a
 * start is in the container's own configuration).
 */
static void
attest(const char *digest, const char *domain, const char *const *ids,
    char mac[65])
{
	unsigned char key[LZ_NETPOLICY_KEY_BYTES];
	struct lz_err err = LZ_ERR_INIT;
	char text[2 * LZ_NETPOLICY_KEY_BYTES + 2 * LZ_NETPOLICY_ID_LEN + 4];
	char sidecar[LZ_NETPOLICY_ID_LEN + 1], sandbox[LZ_NETPOLICY_ID_LEN + 1];
	ssize_t n;
	int fd, rc;

	fd = open(LZ_NETPOLICY_KEY_PATH, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		die("no attachment file at '%s': %s", LZ_NETPOLICY_KEY_PATH,
		    strerror(errno));
	n = read(fd, text, sizeof text);
	close(fd);
	if (n < 0)
		die("cannot read '%s': %s", LZ_NETPOLICY_KEY_PATH,
		    strerror(errno));
	/* An older lazaret passes the IDs and writes only the key. */
	rc = ids != NULL ? lz_netpolicy_key_parse(text, (size_t)n, key, &err) :
	    lz_netpolicy_attach_parse(text, (size_t)n, key, sidecar, sandbox,
	    &err);
	if (rc != 0)
		die("%s", err.msg);
	lz_netpolicy_attach_mac(key, sizeof key, digest, domain,
	    ids != NULL ? ids[0] : sidecar, ids != NULL ? ids[1] : sandbox,
	    mac);
}

int
main(int argc, char **argv)
{
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct sockaddr_nl sa;
	struct nl nl;
	char digest[LZ_NETPOLICY_DIGEST_LEN + 1], mac[65];
	size_t len;

	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	if (argc != 2 && argc != 3 && argc != 5)
		die("usage: " PROG " POLICY-TEXT [DOMAIN-ID]");
	len = strlen(argv[1]);
	if (lz_netpolicy_parse(argv[1], len, &np, &err) != 0)
		die("bad policy: %s", err.msg);
	if (lz_netpolicy_digest(argv[1], len, digest, &err) != 0)
		die("%s", err.msg);
	check_ipv6();
	memset(&nl, 0, sizeof nl);
	if ((nl.ifindex = (int)if_nametoindex(LZ_NETPOLICY_DEV)) == 0)
		die("no device '%s' in this netns (run with --network "
		    "slirp4netns): %s", LZ_NETPOLICY_DEV, strerror(errno));
	nl.fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nl.fd < 0)
		die("netlink socket: %s", strerror(errno));
	memset(&sa, 0, sizeof sa);
	sa.nl_family = AF_NETLINK;
	if (bind(nl.fd, (struct sockaddr *)&sa, sizeof sa) < 0)
		die("netlink bind: %s", strerror(errno));
	install(&nl, &np);
	verify_table(&nl, &np);
	verify_probes(&nl, &np);
	close(nl.fd);
	lz_netpolicy_release(&np);
	if (argc > 2)
		attest(digest, argv[2], argc == 5 ? (const char *const *)argv +
		    3 : NULL, mac);
	if (printf("ready %s%s%s\n", digest, argc > 2 ? " " : "",
	    argc > 2 ? mac : "") < 0 || fflush(stdout) != 0)
		die("cannot write to stdout: %s", strerror(errno));
	for (;;)
		pause();
}
