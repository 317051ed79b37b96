/*
 * sidecar-seccomp.c: the Network Sidecar's seccomp profile
 * (sidecar-seccomp.h).
 */
#include "core/sidecar-seccomp.h"

/* ioctl(2)'s SIOCGIFINDEX (if_nametoindex), the only ioctl allowed. */
#define SIOCGIFINDEX_NR 0x8933

/*
 * Each allowed without conditions. Seen in a run (journal, 2026-12-02):
 * crun's last two calls (close, execve), then the program's start-up,
 * netlink, its files (the IPv6 sysctls, the attachment file), "ready" and
 * pause. Not seen but reached by a failure: the static glibc's abort
 * (rt_sigprocmask, getpid, gettid, tgkill), exit, and mmap/munmap/mremap/
 * madvise for allocations larger than brk serves (a long policy).
 */
static const char *const allowed[] = {
	"arch_prctl", "bind", "brk", "close", "execve", "exit", "exit_group",
	"fstat", "futex", "getpid", "getrandom", "gettid", "lseek", "madvise",
	"mmap", "mprotect", "mremap", "munmap", "newfstatat", "openat",
	"pause", "prlimit64", "read", "readlink", "recvfrom", "restart_syscall",
	"rseq", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sendto",
	"set_robust_list", "set_tid_address", "socket", "tgkill", "write",
};

void
lz_sidecar_seccomp_json(struct lz_buf *out)
{
	size_t i;

	lz_buf_addf(out, "{\"defaultAction\":\"SCMP_ACT_ERRNO\","
	    "\"defaultErrnoRet\":1,\"syscalls\":[{\"names\":[");
	for (i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
		lz_buf_addf(out, "%s\"%s\"", i > 0 ? "," : "", allowed[i]);
	lz_buf_addf(out, "],\"action\":\"SCMP_ACT_ALLOW\"},{\"names\":"
	    "[\"ioctl\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":1,"
	    "\"value\":%d,\"op\":\"SCMP_CMP_EQ\"}]}]}\n", SIOCGIFINDEX_NR);
}
