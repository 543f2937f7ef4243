// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal rtnetlink and ethtool: what busybox cannot do for the stress
 * (veth peers in other namespaces, chosen ifindexes, 64-bit counters).
 * Every socket is opened by the calling thread, so it works in the
 * thread's current network namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <linux/veth.h>
#include "nl.h"

int ns_self(void)
{
	return open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
}

int ns_enter(int fd)
{
	return setns(fd, CLONE_NEWNET) ? -errno : 0;
}

int ns_new(void)
{
	int self = ns_self(), fd = -1, err;

	if (self < 0)
		return -errno;
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		close(self);
		return err;
	}
	fd = ns_self();
	err = fd < 0 ? -errno : 0;
	if (ns_enter(self) && !err)
		err = -errno;
	close(self);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

/* A request: netlink header, ifinfomsg, attributes. */
struct req {
	union {
		struct nlmsghdr nh;
		char buf[2048];
	};
};

static struct ifinfomsg *req_init(struct req *q, int type, int flags, int ifindex)
{
	struct ifinfomsg *ifi = NLMSG_DATA(&q->nh);

	memset(q, 0, sizeof(*q));
	q->nh.nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	q->nh.nlmsg_type = type;
	q->nh.nlmsg_flags = flags;
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return ifi;
}

static struct rtattr *put_attr(struct nlmsghdr *nh, int type, const void *data,
			       int len)
{
	struct rtattr *rta = (void *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (data)
		memcpy(RTA_DATA(rta), data, len);
	else
		memset(RTA_DATA(rta), 0, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void end_nest(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (char *)nh + nh->nlmsg_len - (char *)nest;
}

/* Send one request; on RTM_GETLINK copy the reply into REPLY. */
static int talk(struct nlmsghdr *nh, void *reply, size_t size)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[16384];
	int fd, n, err = 0;
	struct nlmsghdr *r;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	nh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = 1;
	if (sendto(fd, nh, nh->nlmsg_len, 0, (void *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			err = -errno;
			goto out;
		}
		for (r = (void *)buf; NLMSG_OK(r, (unsigned int)n); r = NLMSG_NEXT(r, n)) {
			if (r->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(r))->error;
				goto out;
			}
			if (reply && r->nlmsg_len <= size) {
				memcpy(reply, r, r->nlmsg_len);
				reply = NULL;
			}
			if (r->nlmsg_type == NLMSG_DONE)
				goto out;
		}
	}
out:
	close(fd);
	return err;
}

int veth_add(const char *name_a, int idx_a, const char *name_b, int idx_b,
	     int ns_b, int queues)
{
	struct rtattr *linkinfo, *data, *peer;
	struct ifinfomsg *pifi;
	struct req q;

	req_init(&q, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, idx_a);
	put_attr(&q.nh, IFLA_IFNAME, name_a, strlen(name_a) + 1);
	put_attr(&q.nh, IFLA_NUM_TX_QUEUES, &queues, sizeof(queues));
	put_attr(&q.nh, IFLA_NUM_RX_QUEUES, &queues, sizeof(queues));
	linkinfo = put_attr(&q.nh, IFLA_LINKINFO, NULL, 0);
	put_attr(&q.nh, IFLA_INFO_KIND, "veth", 5);
	data = put_attr(&q.nh, IFLA_INFO_DATA, NULL, 0);
	peer = put_attr(&q.nh, VETH_INFO_PEER, NULL, sizeof(struct ifinfomsg));
	pifi = RTA_DATA(peer);
	pifi->ifi_family = AF_UNSPEC;
	pifi->ifi_index = idx_b;
	put_attr(&q.nh, IFLA_IFNAME, name_b, strlen(name_b) + 1);
	put_attr(&q.nh, IFLA_NUM_TX_QUEUES, &queues, sizeof(queues));
	put_attr(&q.nh, IFLA_NUM_RX_QUEUES, &queues, sizeof(queues));
	if (ns_b >= 0)
		put_attr(&q.nh, IFLA_NET_NS_FD, &ns_b, sizeof(ns_b));
	end_nest(&q.nh, peer);
	end_nest(&q.nh, data);
	end_nest(&q.nh, linkinfo);
	return talk(&q.nh, NULL, 0);
}

static int link_flags(int ifindex, unsigned int flags, unsigned int change)
{
	struct ifinfomsg *ifi;
	struct req q;

	ifi = req_init(&q, RTM_NEWLINK, 0, ifindex);
	ifi->ifi_flags = flags;
	ifi->ifi_change = change;
	return talk(&q.nh, NULL, 0);
}

int link_up(int ifindex)
{
	return link_flags(ifindex, IFF_UP, IFF_UP);
}

int link_down(int ifindex)
{
	return link_flags(ifindex, 0, IFF_UP);
}

int link_del(int ifindex)
{
	struct req q;

	req_init(&q, RTM_DELLINK, 0, ifindex);
	return talk(&q.nh, NULL, 0);
}

int link_stats(int ifindex, struct rtnl_link_stats64 *st)
{
	static __thread char reply[16384] __attribute__((aligned(8)));
	struct nlmsghdr *r = (void *)reply;
	struct rtattr *a;
	int err, len;
	struct req q;

	req_init(&q, RTM_GETLINK, 0, ifindex);
	memset(reply, 0, sizeof(struct nlmsghdr));
	err = talk(&q.nh, reply, sizeof(reply));
	if (err)
		return err;
	if (r->nlmsg_type != RTM_NEWLINK)
		return -ENOENT;
	len = r->nlmsg_len - NLMSG_LENGTH(sizeof(struct ifinfomsg));
	for (a = IFLA_RTA(NLMSG_DATA(r)); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == IFLA_STATS64) {
			memcpy(st, RTA_DATA(a), sizeof(*st));
			return 0;
		}
	}
	return -ENOENT;
}

int ethtool_stat(const char *ifname, const char *stat, unsigned long long *val)
{
	struct {
		struct ethtool_sset_info hdr;
		__u32 buf[1];
	} sset = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *strs = NULL;
	struct ethtool_stats *vals = NULL;
	struct ifreq ifr = { 0 };
	int fd, err = -ENOENT;
	__u32 n, i;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = (void *)&sset;
	if (ioctl(fd, SIOCETHTOOL, &ifr)) {
		err = -errno;
		goto out;
	}
	n = sset.hdr.data[0];
	strs = calloc(1, sizeof(*strs) + n * ETH_GSTRING_LEN);
	vals = calloc(1, sizeof(*vals) + n * sizeof(__u64));
	if (!strs || !vals) {
		err = -ENOMEM;
		goto out;
	}
	strs->cmd = ETHTOOL_GSTRINGS;
	strs->string_set = ETH_SS_STATS;
	strs->len = n;
	ifr.ifr_data = (void *)strs;
	if (ioctl(fd, SIOCETHTOOL, &ifr)) {
		err = -errno;
		goto out;
	}
	vals->cmd = ETHTOOL_GSTATS;
	vals->n_stats = n;
	ifr.ifr_data = (void *)vals;
	if (ioctl(fd, SIOCETHTOOL, &ifr)) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!strncmp((char *)strs->data + i * ETH_GSTRING_LEN, stat,
			     ETH_GSTRING_LEN)) {
			*val = vals->data[i];
			err = 0;
			break;
		}
	}
out:
	free(strs);
	free(vals);
	close(fd);
	return err;
}

/*
 * sysfs shows the devices of the namespace its mount was made in, so a
 * child enters NS, mounts a sysfs of its own in a mount namespace of its
 * own, and writes there; the caller's namespaces stay as they were.
 */
static int sysfs_write_in(int ns, const char *path, const char *val)
{
	int status, fd, len = strlen(val);
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (ns_enter(ns) || unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    umount2("/sys", MNT_DETACH) ||
		    mount("sysfs", "/sys", "sysfs", 0, NULL))
			_exit(errno & 0x7f);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			_exit(errno & 0x7f);
		errno = EIO;
		_exit(write(fd, val, len) == len ? 0 : errno & 0x7f);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (!WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

int napi_threaded(int ns, const char *ifname)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/class/net/%s/threaded", ifname);
	return sysfs_write_in(ns, path, "1");
}
